import ArgumentParser
import Foundation
import OpenCapturePhotos
import OpenCaptureTools

/// `opencapture library`: the photo library that `PHPhotoLibrary.shared()` opens.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "library",
        abstract: "Import photos into the photo library, list, export, edit and delete them (PhotoKit's PHPhotoLibrary on SQLite).",
        subcommands: [Import.self, List.self, Export.self, Edit.self, Delete.self])

    struct Location: ParsableArguments {
        @Option(help: "Library folder (default: $OPENCAPTURE_PHOTO_LIBRARY, else ~/.local/share/opencapture/Photos).")
        var library: String?

        func open() throws -> PHPhotoLibrary {
            guard let library else { return PHPhotoLibrary.shared() }
            guard !library.isEmpty else { throw ValidationError("--library needs a folder") }
            return PHPhotoLibrary(url: URL(fileURLWithPath: library, isDirectory: true))
        }

        /// The existing library and its assets (hidden ones too) with these identifiers — as `list` prints them, or
        /// the start of one (its UUID, or as much of it as no other asset's starts with), any case — in the order
        /// given, each once. An identifier matching no asset, or several, is an error naming it, and nothing is done.
        func assets(_ identifiers: [String]) throws -> (PHPhotoLibrary, [PHAsset]) {
            let library = try open()
            try library.openExistingLibrary()
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            let result = library.fetchAssets(with: options)
            let all = result.objects(at: IndexSet(0..<result.count))
            var chosen: [PHAsset] = [], unknown: [String] = []
            for id in identifiers {
                let key = id.uppercased()
                let matches = all.filter { $0.localIdentifier == key || (!key.isEmpty && $0.localIdentifier.hasPrefix(key)) }
                if matches.count > 1, !matches.contains(where: { $0.localIdentifier == key }) {
                    throw CLIError("\(id) starts \(matches.count) assets' identifiers: give more of it")
                }
                guard let asset = matches.first(where: { $0.localIdentifier == key }) ?? matches.first else {
                    unknown.append(id)
                    continue
                }
                if !chosen.contains(asset) { chosen.append(asset) }
            }
            guard unknown.isEmpty else {
                throw CLIError("the library at \(library.url.path) holds no asset \(unknown.joined(separator: ", ")) "
                               + "(`opencapture library list --hidden` shows every identifier)")
            }
            return (library, chosen)
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract:
            "Add each photo and video as an asset; a photo and its Live Photo movie of the same name (IMG_1.HEIC + IMG_1.MOV, the same content identifier) become one Live Photo, a photo and a RAW of the same name one RAW + processed asset; any other file is an asset of its own. A file that is no photo or video, or a damaged one, is left out with a line saying why, and the rest is imported (exit status 1).",
            discussion: "With --all-or-nothing, such a file fails the whole import instead and nothing is imported.")

        @Argument(help: "Photos (JPEG, HEIC, PNG, TIFF, DNG, camera raw), Live Photo movies and videos.") var files: [String]
        @OptionGroup var location: Location
        @Flag(help: "Import a photo or video the library already holds (same bytes) again, as a new asset.")
        var allowDuplicates = false
        @Flag(help: "Import nothing when any file cannot be imported (default: leave those out and import the rest).")
        var allOrNothing = false

        func run() throws {
            let library = try location.open()
            let plan = LibraryImportPlan(files: files.map { URL(fileURLWithPath: $0) })
            for note in plan.notes { print(note) }
            // As Photos' import does by default: a photo or video whose bytes the library holds as an asset's main
            // resource is not imported again.
            var assets = plan.assets
            if !allowDuplicates {
                assets.removeAll { asset in
                    guard let main = asset.resources.first?.file,
                          let data = try? Data(contentsOf: main, options: .alwaysMapped),
                          library.holdsAsset(withMainResource: data) else { return false }
                    print("\(main.lastPathComponent) is already in the library: not imported again (--allow-duplicates imports it)")
                    return true
                }
            }
            let skipped = assets.isEmpty ? [] : try add(assets, to: library)
            let count = assets.count - skipped.count
            for (index, error) in skipped {
                let files = assets[index].resources.map(\.file.lastPathComponent).joined(separator: " + ")
                FileHandle.standardError.write(Data("\(files) not imported: \(error.reason)\n".utf8))
            }
            print("imported \(count) asset\(count == 1 ? "" : "s") into \(library.url.path)"
                  + (skipped.isEmpty ? "" : "; left out \(skipped.count) (above)"))
            if !skipped.isEmpty { throw ExitCode(1) }
        }

        /// Adds the planned assets in one change; returns those left out (by position) with why. With
        /// `allOrNothing`, one that cannot be added fails the change and nothing is added.
        private func add(_ assets: [LibraryImportPlan.Asset], to library: PHPhotoLibrary) throws -> [(request: Int, error: PHPhotosError)] {
            let change = {
                for asset in assets {
                    let request = PHAssetCreationRequest.forAsset()
                    for (role, file) in asset.resources {
                        let type: PHAssetResourceType
                        switch role {
                        case .photo: type = .photo
                        case .alternatePhoto: type = .alternatePhoto
                        case .pairedVideo: type = .pairedVideo
                        case .video: type = .video
                        }
                        request.addResource(with: type, fileURL: file, options: nil)
                    }
                }
            }
            guard !allOrNothing else {
                try library.performChangesAndWait(change)
                return []
            }
            return try library.performChangesAndWaitSkippingInvalidCreations(change)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the library's assets, newest first.")
        @OptionGroup var location: Location
        @Flag(help: "List hidden assets too.") var hidden = false

        func run() throws {
            let library = try location.open()
            // A missing or damaged library is an error, not an empty list; nothing is created.
            try library.openExistingLibrary()
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
            options.includeHiddenAssets = hidden
            let assets = library.fetchAssets(with: options)
            print("\(assets.count) asset\(assets.count == 1 ? "" : "s") in \(library.url.path)")
            let format = ISO8601DateFormatter()
            assets.enumerateObjects { asset, _, _ in
                let kinds = PHAssetResource.assetResources(for: asset).map { "\($0.type)" }.joined(separator: "+")
                var tags: [String] = []
                if asset.mediaSubtypes.contains(.photoLive) { tags.append("Live") }
                if asset.mediaSubtypes.contains(.photoDepthEffect) { tags.append("depth") }
                if asset.isFavorite { tags.append("favourite") }
                if asset.isHidden { tags.append("hidden") }
                let length = asset.mediaType == .video ? String(format: " %.2f s", asset.duration) : ""
                print("\(asset.localIdentifier)  \(asset.creationDate.map(format.string(from:)) ?? "-")  \(asset.mediaType) "
                      + "\(asset.pixelWidth)×\(asset.pixelHeight)\(length)  \(kinds)" + (tags.isEmpty ? "" : "  [\(tags.joined(separator: ", "))]"))
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract:
            "Copy assets' original files (photo, Live Photo movie, RAW, …) out of the library under their original names; an existing file is never replaced.")
        @Argument(help: "Asset identifiers, as `library list` prints them, or their first characters.") var identifiers: [String]
        @Option(name: .shortAndLong, help: "Folder to write into (made if missing).") var output: String
        @OptionGroup var location: Location

        func run() throws {
            guard !output.isEmpty else { throw CLIError("-o needs a folder") }
            let (_, assets) = try location.assets(identifiers)
            let folder = URL(fileURLWithPath: output, isDirectory: true)
            try AtomicFile.makeFolder(folder)
            // Every file named and checked before any is written: all are written or, should one name be taken, none.
            var files: [(data: Data, url: URL)] = []
            var names = Set<String>()
            for asset in assets {
                for resource in PHAssetResource.assetResources(for: asset) {
                    let url = folder.appendingPathComponent(resource.originalFilename)
                    guard names.insert(resource.originalFilename).inserted else {
                        throw CLIError("two of the assets' files are named \(resource.originalFilename): export them into different folders")
                    }
                    guard !AtomicFile.exists(url) else { throw CLIError("\(url.path) exists; export never replaces a file") }
                    files.append((try PHAssetResourceManager.default().data(for: resource), url))
                }
            }
            try AtomicFile.write(files, replacing: false)
            for file in files { print("→ \(file.url.path)") }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(abstract:
            "Mark assets as favourites or not, hide or show them (PHAssetChangeRequest), all in one change.")
        @Argument(help: "Asset identifiers, as `library list --hidden` prints them, or their first characters.") var identifiers: [String]
        @Flag(inversion: .prefixedNo, help: "Favourite (--favorite) or not (--no-favorite).") var favorite: Bool?
        @Flag(inversion: .prefixedNo, help: "Hidden from fetches (--hidden) or shown (--no-hidden).") var hidden: Bool?
        @OptionGroup var location: Location

        func validate() throws {
            guard favorite != nil || hidden != nil else { throw ValidationError("say what to change: --favorite, --no-favorite, --hidden or --no-hidden") }
        }

        func run() throws {
            let (library, assets) = try location.assets(identifiers)
            try library.performChangesAndWait {
                for asset in assets {
                    let request = PHAssetChangeRequest(for: asset)
                    if let favorite { request.isFavorite = favorite }
                    if let hidden { request.isHidden = hidden }
                }
            }
            print("changed \(assets.count) asset\(assets.count == 1 ? "" : "s")")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract:
            "Delete assets and their files (unless another asset holds the same bytes), all in one change. There is no Recently Deleted: export first what you may want back.")
        @Argument(help: "Asset identifiers, as `library list --hidden` prints them, or their first characters.") var identifiers: [String]
        @OptionGroup var location: Location

        func run() throws {
            let (library, assets) = try location.assets(identifiers)
            try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets(assets as NSArray) }
            print("deleted \(assets.count) asset\(assets.count == 1 ? "" : "s") from \(library.url.path)")
        }
    }
}
