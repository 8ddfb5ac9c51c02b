import ArgumentParser
import Foundation
import OpenCapturePhotos
import OpenCaptureTools

/// `opencapture library`: the photo library that `PHPhotoLibrary.shared()` opens.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "library",
        abstract: "Import photos into the photo library and list it (PhotoKit's PHPhotoLibrary on SQLite).",
        subcommands: [Import.self, List.self])

    struct Location: ParsableArguments {
        @Option(help: "Library folder (default: $OPENCAPTURE_PHOTO_LIBRARY, else ~/.local/share/opencapture/Photos).")
        var library: String?

        func open() throws -> PHPhotoLibrary {
            guard let library else { return PHPhotoLibrary.shared() }
            guard !library.isEmpty else { throw ValidationError("--library needs a folder") }
            return PHPhotoLibrary(url: URL(fileURLWithPath: library, isDirectory: true))
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract:
            "Add each photo and video as an asset; a photo and its Live Photo movie of the same name (IMG_1.HEIC + IMG_1.MOV, the same content identifier) become one Live Photo, a photo and a RAW of the same name one RAW + processed asset; any other file is an asset of its own.")

        @Argument(help: "Photos (JPEG, HEIC, PNG, TIFF, DNG, camera raw), Live Photo movies and videos.") var files: [String]
        @OptionGroup var location: Location
        @Flag(help: "Import a photo or video the library already holds (same bytes) again, as a new asset.")
        var allowDuplicates = false

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
            let count = assets.isEmpty ? 0 : try add(assets, to: library)
            print("imported \(count) asset\(count == 1 ? "" : "s") into \(library.url.path)")
        }

        /// Adds the planned assets in one change (all or none); returns how many.
        private func add(_ assets: [LibraryImportPlan.Asset], to library: PHPhotoLibrary) throws -> Int {
            try library.performChangesAndWait {
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
            return assets.count
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the library's assets, newest first.")
        @OptionGroup var location: Location

        func run() throws {
            let library = try location.open()
            // A missing or damaged library is an error, not an empty list; nothing is created.
            try library.openExistingLibrary()
            let options = PHFetchOptions()
            options.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
            let assets = library.fetchAssets(with: options)
            print("\(assets.count) asset\(assets.count == 1 ? "" : "s") in \(library.url.path)")
            let format = ISO8601DateFormatter()
            assets.enumerateObjects { asset, _, _ in
                let kinds = PHAssetResource.assetResources(for: asset).map { "\($0.type)" }.joined(separator: "+")
                var tags: [String] = []
                if asset.mediaSubtypes.contains(.photoLive) { tags.append("Live") }
                if asset.mediaSubtypes.contains(.photoDepthEffect) { tags.append("depth") }
                print("\(asset.localIdentifier)  \(asset.creationDate.map(format.string(from:)) ?? "-")  \(asset.mediaType) "
                      + "\(asset.pixelWidth)×\(asset.pixelHeight)  \(kinds)" + (tags.isEmpty ? "" : "  [\(tags.joined(separator: ", "))]"))
            }
        }
    }
}
