import CaptureCore
import Foundation
import MediaFormats
#if canImport(Glibc)
import Glibc
#endif

/// One resource of a creation request, read and checked, ready to store.
struct PreparedResource: Sendable {
    let type: PHAssetResourceType
    let data: Data
    let digest: String
    let fileExtension: String
    let originalFilename: String
    let uniformTypeIdentifier: String
}

/// A creation request turned into what the store saves: its resources read, checked and hashed, and
/// the asset's type, subtypes and size read from its primary resource (never trusted from the caller).
struct PreparedAsset: Sendable {
    let id: String
    let mediaType: PHAssetMediaType
    let mediaSubtypes: PHAssetMediaSubtype
    let pixelWidth: Int
    let pixelHeight: Int
    /// A video's length in seconds (0 for photos and audio).
    let duration: Double
    let creationDate: Date?
    let location: CLLocation?
    let isFavorite: Bool
    let isHidden: Bool
    let resources: [PreparedResource]

    /// Checks the request the way Photos does: one primary resource (a photo or a video), a paired
    /// video or an alternate photo only beside a photo, and every photo a readable image.
    init(_ request: PHAssetCreationRequest) throws {
        let added = request.addedResources
        let types = added.map(\.type)
        if let problem = PHAssetCreationRequest.resourceProblem(types) { throw PHPhotosError(.invalidResource, problem) }
        guard let primary = types.first(where: { [.photo, .video, .audio].contains($0) }) else {
            throw PHPhotosError(.invalidResource, "no .photo, .video or .audio resource")
        }
        // Errors name the resource as the caller knows it: its file, else its position.
        let labels = added.enumerated().map { index, resource in
            "resource \(index + 1) (.\(resource.type)\(resource.fileURL.map { ", " + $0.lastPathComponent } ?? ""))"
        }
        // The primary photo's raw read (its size and orientation), when checking it read one: LibRaw unpacks a raw once.
        let primaryIndex = added.firstIndex { $0.type == primary }
        var primaryRaw: RawFileInfo?
        resources = try added.enumerated().map { index, resource in
            let label = labels[index]
            if resource.options?.shouldMoveFile == true, let url = resource.fileURL { try PreparedAsset.checkMovable(url, label: label) }
            let data = try resource.read(label: label)
            guard !data.isEmpty else { throw PHPhotosError(.invalidResource, "\(label) is empty") }
            let kind = FileKind.of(data)
            let isImage = [.photo, .alternatePhoto, .fullSizePhoto].contains(resource.type)
            if isImage, kind == nil || kind == .radianceHDR || kind == .movie {
                throw PHPhotosError(.invalidResource, "\(label) is not a JPEG, HEIF, PNG, TIFF, DNG or camera raw image")
            }
            if isImage, let kind {
                let raw = try PreparedAsset.checkWhole(image: data, kind: kind, label: label)
                if index == primaryIndex { primaryRaw = raw }
            }
            if [.video, .pairedVideo].contains(resource.type) {
                guard kind == .movie else { throw PHPhotosError(.invalidResource, "\(label) is not a QuickTime or MPEG-4 movie") }
                try PreparedAsset.checkMovie(data, label: label)
            }
            if resource.type == .audio { try PreparedAsset.checkAudio(data, kind: kind, label: label) }
            let (ext, detected) = PreparedAsset.fileType(kind: kind, resourceType: resource.type, data: data)
            let uti = try PreparedAsset.typeIdentifier(declared: resource.options?.uniformTypeIdentifier, detected: detected,
                                                       kind: kind, label: label)
            let name = resource.options?.originalFilename ?? resource.fileURL?.lastPathComponent
                ?? "IMG_\(String(request.identifier.prefix(8)))_\(index + 1).\(ext)"
            return PreparedResource(type: resource.type, data: data, digest: PhotoStore.sha256(data), fileExtension: ext,
                                    originalFilename: name, uniformTypeIdentifier: uti)
        }
        id = request.identifier
        isFavorite = request.isFavorite
        isHidden = request.isHidden
        guard let main = resources.first(where: { $0.type == primary })?.data else {
            throw PHPhotosError(.invalidResource, "no .\(primary) resource")
        }
        // As Photos does on import: the date the photo was taken and where, from its EXIF (a video's date from its movie
        // header), unless the request sets them.
        let exif = primary == .photo ? ExifReader.read(photo: main) : nil
        let movie = primary == .video ? try? QuickTimeMovie.parse(main) : nil
        let movieDate = movie?.creationDate
        creationDate = request.creationDate ?? exif?.dateTimeOriginal ?? movieDate ?? Date()
        // (A position off the globe — a latitude past ±90° — is no place.)
        location = request.location ?? exif?.gps.flatMap { gps in abs(gps.latitude) <= 90 && abs(gps.longitude) <= 180 ? gps : nil }.map { gps in
            CLLocation(coordinate: CLLocationCoordinate2D(latitude: gps.latitude, longitude: gps.longitude),
                       altitude: gps.altitude ?? 0, timestamp: gps.timestamp ?? exif?.dateTimeOriginal ?? Date())
        }
        switch primary {
        case .photo:
            mediaType = .image
            let size = try PreparedAsset.pixelSize(of: main, label: types.firstIndex(of: .photo).map { labels[$0] } ?? "the photo",
                                                   raw: primaryRaw)
            (pixelWidth, pixelHeight) = (size.width, size.height)
            var subtypes: PHAssetMediaSubtype = []
            if let movie = resources.firstIndex(where: { $0.type == .pairedVideo }), let photo = types.firstIndex(of: .photo) {
                try PreparedAsset.checkPairing(photo: main, photoLabel: labels[photo], movie: resources[movie].data, movieLabel: labels[movie])
                subtypes.insert(.photoLive)
            }
            if (try? EmbeddedDepthReader.describe(main))?.depthSize != nil { subtypes.insert(.photoDepthEffect) }
            mediaSubtypes = subtypes
            duration = 0
        case .video:
            // The first video track's size as shown (its matrix applied: an upright phone's movie is portrait, as
            // Photos reports it) and the movie's length.
            let track = movie?.videoTrack
            (mediaType, mediaSubtypes, pixelWidth, pixelHeight) = (.video, [], track?.displayWidth ?? 0, track?.displayHeight ?? 0)
            duration = movie?.duration ?? 0
        default:
            (mediaType, mediaSubtypes, pixelWidth, pixelHeight, duration) = (.audio, [], 0, 0, 0)
        }
    }

    /// `shouldMoveFile`: a file its folder does not let us remove (read-only disk, no permission) cannot be moved, so
    /// the change is refused before anything is stored, rather than saved with the file left behind as if moved.
    static func checkMovable(_ url: URL, label: String) throws {
        let folder = url.deletingLastPathComponent()
        guard access(folder.path, W_OK) != 0 else { return }
        throw PHPhotosError(.invalidResource, "\(label) cannot be moved into the library (shouldMoveFile): its folder \(folder.path) does not "
                            + "let it be removed (\(SystemErrorReason.text(errno: errno))); nothing was saved — add it without shouldMoveFile to copy it")
    }

    /// Throws unless the image is whole, as MediaFormats' readers see it: a JPEG's image data through its end marker
    /// and enough of it for the frame its header claims, a PNG's chunks through IEND, a TIFF's or DNG's directories and
    /// their strips or tiles inside the file, a HEIF's boxes inside the file, a DNG or camera raw read by LibRaw as
    /// `RawFileReader` reads it for developing (what it read is returned, for `pixelSize`).
    @discardableResult
    static func checkWhole(image data: Data, kind: FileKind, label: String) throws -> RawFileInfo? {
        switch kind == .jpeg ? JPEGSegments.imageDataProblem(in: data) : nil {
        case .cutShort?: throw PHPhotosError(.invalidResource, "\(label) is a JPEG cut short inside its image data")
        case let problem?: throw PHPhotosError(.invalidResource, "\(label) is a damaged JPEG: \(problem)")
        case nil: break
        }
        do {
            switch kind {
            case .png:
                _ = try PNGHeader.chunks(in: data)
            case .heif:
                _ = try HEIFStructure.parse(data)
            case .tiff, .dng:
                let reader = try TIFFTagReader(data)
                let main = try reader.mainDirectories()
                try reader.validateDirectoryTree()
                try reader.checkImageDataWithinFile(main + main.flatMap { reader.subDirectories(of: $0) })
            default:
                break
            }
        } catch {
            throw PHPhotosError(.invalidResource, "\(label) is a damaged \(kind.rawValue): \(error)")
        }
        // A DNG or camera raw must read as `develop` and the studio read it — LibRaw opens it and unpacks its mosaic —
        // as Photos imports only the raws it can read: a whole file LibRaw does not take (a 2×2 DNG, a short tile
        // table, a linear or Deflate-compressed DNG) would otherwise be stored and never shown.
        guard kind == .dng || kind == .cameraRaw else { return nil }
        do { return try RawFileReader.read(data).info } catch {
            throw PHPhotosError(.invalidResource, "\(label) is a \(kind.rawValue) that cannot be read: \(error)")
        }
    }

    /// Throws unless `data` is a movie whose header (`moov`) reads, inside the file, with a video track.
    static func checkMovie(_ data: Data, label: String) throws {
        let movie = try readMovie(data, label: label)
        guard movie.videoTrack != nil else {
            throw PHPhotosError(.invalidResource, "\(label) is a movie without a video track")
        }
    }

    /// An audio resource: an MPEG-4 or QuickTime file (`ftyp`, as an .m4a) must read with a sound track, and an image
    /// is refused; other audio formats (WAV, MP3, AAC…) are stored unchecked — MediaFormats has no reader for them.
    static func checkAudio(_ data: Data, kind: FileKind?, label: String) throws {
        if let kind, kind != .movie { throw PHPhotosError(.invalidResource, "\(label) is a \(kind.rawValue) image, not audio") }
        guard kind == .movie || isISOMedia(data) else { return }
        guard try readMovie(data, label: label).tracks.contains(where: { $0.handler == "soun" }) else {
            throw PHPhotosError(.invalidResource, "\(label) is an MPEG-4 file without a sound track")
        }
    }

    /// The movie's header, or why it cannot be read ("no moov box", "data truncated").
    private static func readMovie(_ data: Data, label: String) throws -> QuickTimeMovie {
        do {
            return try QuickTimeMovie.parse(data)
        } catch {
            let reason: String
            switch error as? MediaFormatError {
            case .invalidImage(let why)?, .invalidMetadata(let why)?, .unsupported(let why)?: reason = why
            default: reason = "\(error)"
            }
            throw PHPhotosError(.invalidResource, "\(label) is a movie that cannot be read: \(reason)")
        }
    }

    /// Whether `data` starts with an ISO base media `ftyp` box (MPEG-4, QuickTime, HEIF, M4A…).
    static func isISOMedia(_ data: Data) -> Bool {
        data.count >= 12 && data[data.startIndex + 4..<data.startIndex + 8].elementsEqual("ftyp".utf8)
    }

    /// A Live Photo's still and movie must carry the same content identifier — the still's Apple MakerNote, the
    /// movie's `com.apple.quicktime.content.identifier` (`mdta`) — as Photos requires to pair them; the error names both.
    static func checkPairing(photo: Data, photoLabel: String, movie: Data, movieLabel: String) throws {
        let photoID = ExifReader.read(photo: photo)?.appleContentIdentifier, movieID = (try? LivePhotoMovieAtoms.read(movie))?.contentIdentifier
        if let photoID, photoID == movieID { return }
        let why: String
        switch (photoID, movieID) {
        case (nil, nil): why = "neither carries a content identifier (the photo's Apple MakerNote, the movie's com.apple.quicktime.content.identifier)"
        case (nil, let movieID?): why = "the photo carries no content identifier in an Apple MakerNote (the movie's is \(movieID))"
        case (let photoID?, nil): why = "the movie carries no com.apple.quicktime.content.identifier (the photo's is \(photoID))"
        case (let photoID?, let movieID?): why = "their content identifiers differ (\(photoID), \(movieID))"
        }
        throw PHPhotosError(.invalidResource, "\(photoLabel) and \(movieLabel) cannot be paired as a Live Photo: \(why)")
    }

    /// The image's size as shown — upright, its orientation applied, as Photos reports pixelWidth and pixelHeight: an
    /// upright phone's photo stored 4032×3024 and tagged "rotate 90° clockwise" is 3024×4032 — from its header and
    /// tags; errors begin with `label`. `raw`: what `checkWhole` read of a raw file, so LibRaw need not read it again.
    static func pixelSize(of data: Data, label: String, raw: RawFileInfo? = nil) throws -> Size {
        do {
            let kind = FileKind.of(data)
            let stored: Size
            var rawOrientation: Int?   // LibRaw's, for a raw file read through it
            switch kind {
            case .jpeg: stored = try JPEGDecoder.size(of: data)
            case .png:
                let header = try PNGHeader(data)
                stored = Size(width: header.width, height: header.height)
            case .heif:
                // Its size is as shown already (readers turn it by its irot/imir); its EXIF orientation is not applied again.
                let heif = try HEIFStructure.parse(data)
                return Size(width: heif.width, height: heif.height)
            case .tiff:
                let reader = try TIFFTagReader(data)
                guard let ifd0 = try reader.mainDirectories().first else { throw MediaFormatError.invalidImage("no image directory") }
                stored = Size(width: ifd0.integer(256) ?? 0, height: ifd0.integer(257) ?? 0)
            case .dng, .cameraRaw:
                // A DNG's raw image as developed (its DefaultCrop inside the ActiveArea), from its tags: IFD0 is a preview.
                if kind == .dng, let size = try TIFFTagReader(data).dngRawDirectory?.dngDevelopedSize {
                    stored = size
                } else {
                    let info = try raw ?? RawFileReader.read(data).info
                    (stored, rawOrientation) = (Size(width: info.width, height: info.height), info.orientation)
                }
            default:
                throw MediaFormatError.invalidImage("not an image")
            }
            let orientation = rawOrientation ?? ExifReader.read(photo: data)?.orientation ?? 1
            return ExifOrientationTransform(exifOrientation: orientation, size: stored).destinationSize
        } catch {
            throw PHPhotosError(.invalidResource, "\(label) cannot be read: \(error)")
        }
    }

    /// The uniform type identifier to store: what the data is. A declared identifier that contradicts it (public.png on
    /// JPEG bytes) is refused; one that agrees — the same, another name for it (public.heif for a HEIC, public.mpeg-4
    /// for a QuickTime-brand movie, a maker's raw type for a camera raw), or a supertype (public.image, public.movie,
    /// public.data) — gives way to the precise one. Data of no kind read here (audio other than MPEG-4) keeps what was
    /// declared.
    static func typeIdentifier(declared: String?, detected: String, kind: FileKind?, label: String) throws -> String {
        guard let declared, !declared.isEmpty else { return detected }
        guard let kind else { return declared }
        let given = declared.lowercased()
        var agreeing: Set<String> = ["public.data", "public.item", "public.content", detected.lowercased()]
        switch kind {
        case .movie:
            agreeing.formUnion(["com.apple.quicktime-movie", "public.mpeg-4", "com.apple.m4v-video", "public.movie", "public.video",
                                "public.audiovisual-content", "public.audio", "public.mpeg-4-audio", "com.apple.m4a-audio"])
        case .heif:
            agreeing.formUnion(["public.image", "public.heic", "public.heif", "public.heics", "public.avif", "public.avci"])
        case .dng, .cameraRaw:
            agreeing.formUnion(["public.image", "public.camera-raw-image", "com.adobe.raw-image"])
            if given.hasSuffix("raw-image") { return detected }   // com.canon.cr2-raw-image, com.sony.arw-raw-image, …
        default:
            agreeing.insert("public.image")
        }
        guard agreeing.contains(given) else {
            throw PHPhotosError(.invalidResource, "\(label) is declared \(declared) but holds \(kind.rawValue) data (\(detected))")
        }
        return detected
    }

    /// File extension and uniform type identifier for stored data: the image kind's, else a movie's
    /// (QuickTime `ftypqt  ` or another MPEG-4 brand), else generic data.
    static func fileType(kind: FileKind?, resourceType: PHAssetResourceType, data: Data) -> (String, String) {
        if let kind, kind != .movie { return (kind.fileExtension, kind.uniformTypeIdentifier) }
        if isISOMedia(data) {
            let brand = String(decoding: data[data.startIndex + 8..<data.startIndex + 12], as: UTF8.self)
            return brand == "qt  " ? ("mov", "com.apple.quicktime-movie") : ("mp4", "public.mpeg-4")
        }
        return resourceType == .audio ? ("m4a", "public.audio") : ("dat", "public.data")
    }
}
