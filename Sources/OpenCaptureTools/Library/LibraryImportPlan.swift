import Foundation
import MediaFormats

/// Which files of an import become which assets, as Photos groups a folder of iPhone exports: files sharing a name
/// (`IMG_0001.HEIC`, `.MOV`, `.DNG`) form one asset when they belong together — a still with the Live Photo movie
/// that carries its content identifier (`.pairedVideo`), a processed photo with its RAW (`.alternatePhoto`) — and
/// every other file is an asset of its own: two photos or two videos of one name are two assets, a movie whose
/// identifier is not the still's (or that has none) is a video beside it. Kinds are read from the files' bytes
/// (a PNG named `.jpg` is a photo); a file that cannot be read keeps the kind its extension says, so the library's
/// own check names it.
public struct LibraryImportPlan: Sendable {
    /// What a file is to its asset (the `PHAssetResourceType` it is added as).
    public enum Role: Sendable, Equatable {
        case photo, alternatePhoto, pairedVideo, video
    }

    /// One asset to create: its files in the order they are added.
    public struct Asset: Sendable, Equatable {
        public var resources: [(role: Role, file: URL)]

        public static func == (a: Asset, b: Asset) -> Bool {
            a.resources.map(\.role) == b.resources.map(\.role) && a.resources.map(\.file) == b.resources.map(\.file)
        }
    }

    /// The assets, by name and then in the files' order.
    public private(set) var assets: [Asset] = []
    /// What a user should know about the grouping (a movie of a still's name imported as a video, and why).
    public private(set) var notes: [String] = []

    private enum Kind { case photo, raw, movie }

    public init(files: [URL]) {
        let groups = Dictionary(grouping: files.enumerated()) { $0.element.deletingPathExtension().path }
        for key in groups.keys.sorted() {
            let urls = groups[key, default: []].sorted { $0.offset < $1.offset }.map(\.element)
            let kinds = urls.map { (url: $0, kind: Self.kind(of: $0)) }
            var photos = kinds.filter { $0.kind == .photo }.map(\.url)
            var raws = kinds.filter { $0.kind == .raw }.map(\.url)
            var movies = kinds.filter { $0.kind == .movie }.map(\.url)
            // The asset that may pair: the first photo (or, with none, the first RAW) and its companions.
            if let main = photos.first ?? raws.first {
                var asset = Asset(resources: [(.photo, main)])
                if !photos.isEmpty {
                    photos.removeFirst()
                    if !raws.isEmpty { asset.resources.append((.alternatePhoto, raws.removeFirst())) }
                } else {
                    raws.removeFirst()
                }
                let still = Self.contentIdentifier(ofPhoto: main)
                if let still, let index = movies.firstIndex(where: { Self.contentIdentifier(ofMovie: $0) == still }) {
                    asset.resources.append((.pairedVideo, movies.remove(at: index)))
                }
                for movie in movies {
                    notes.append("\(movie.lastPathComponent) is imported as a video of its own: it is not the Live Photo movie of "
                                 + "\(main.lastPathComponent) (" + (still == nil ? "the photo carries no content identifier)"
                                                                                    : "it does not carry the photo's content identifier)"))
                }
                assets.append(asset)
            }
            for photo in photos + raws { assets.append(Asset(resources: [(.photo, photo)])) }
            for movie in movies { assets.append(Asset(resources: [(.video, movie)])) }
        }
    }

    private static let movieExtensions: Set<String> = ["mov", "mp4", "m4v", "qt"]
    private static let rawExtensions: Set<String> = ["dng", "cr2", "cr3", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2",
                                                     "pef", "srw", "3fr", "iiq", "x3f", "erf", "kdc", "mrw", "raw"]

    /// The file's kind from its first bytes, else from its extension.
    private static func kind(of url: URL) -> Kind {
        let head = (try? FileHandle(forReadingFrom: url)).flatMap { handle -> Data? in
            defer { try? handle.close() }
            return try? handle.read(upToCount: 64 * 1024)
        }
        switch head.flatMap({ FileKind.of($0) }) {
        case .movie?: return .movie
        case .dng?, .cameraRaw?: return .raw
        case .some: return .photo
        case nil:
            let ext = url.pathExtension.lowercased()
            return movieExtensions.contains(ext) ? .movie : rawExtensions.contains(ext) ? .raw : .photo
        }
    }

    private static func contentIdentifier(ofPhoto url: URL) -> String? {
        (try? Data(contentsOf: url, options: .alwaysMapped)).flatMap { ExifReader.read(photo: $0) }?.appleContentIdentifier
    }

    private static func contentIdentifier(ofMovie url: URL) -> String? {
        (try? Data(contentsOf: url, options: .alwaysMapped)).flatMap { try? LivePhotoMovieAtoms.read($0) }?.contentIdentifier
    }
}
