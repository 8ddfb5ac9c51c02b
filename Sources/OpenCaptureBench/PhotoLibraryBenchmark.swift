import CaptureCore
import Foundation
import MediaFormats
import OpenCapturePhotos

/// The photo library with 1,000 photos (640×480 JPEGs, all different): `opencapture library import`
/// of all of them as a user runs it (one change, a child process: time and peak memory), then 1,000
/// separate `performChangesAndWait` saves in process (as an app saves each capture: each change
/// fsyncs its file and commits on its own), the database and store sizes, and fetching them all
/// sorted by creation date.
enum PhotoLibraryBenchmark {
    static let count = 1_000

    static func run(_ options: BenchmarkOptions) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-library-bench-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var base = Raster<UInt8>(width: 640, height: 480, channels: 3)
        for y in 0..<480 { for x in 0..<640 { for c in 0..<3 { base[x, y, c] = UInt8((x / 3 + y / 2 + c * 70) % 256) } } }
        var photos: [Data] = []
        for i in 0..<count {
            var image = base
            for k in 0..<64 { image[(i * 7 + k * 13) % 640, (i * 3 + k * 11) % 480, k % 3] = UInt8(i % 256) }
            photos.append(try JPEGEncoder.encode(image, quality: 90))
        }
        let files = try photos.enumerated().map { i, data -> String in
            let url = root.appendingPathComponent(String(format: "IMG_%04d.JPG", i))
            try data.write(to: url)
            return url.path
        }
        let megabytes = Double(photos.reduce(0) { $0 + $1.count }) / 1_048_576

        if let cli = EndToEndBenchmark.findCLI() {
            let library = root.appendingPathComponent("cli-library").path
            let result = ChildProcess.run(cli, ["library", "import"] + files + ["--library", library])
            if result.status == 0 {
                report("library.import_1000.cli.time", result.seconds, "s", format: "%.2f",
                       anchor: String(format: "opencapture library import of 1,000 JPEGs (%.0f MB), one change", megabytes))
                report("library.import_1000.cli.peak_rss", result.peakMB, "MB", format: "%.0f")
            } else {
                print("library.import_1000.cli: exit status \(result.status)")
            }
        }

        let library = PHPhotoLibrary(url: root.appendingPathComponent("app-library", isDirectory: true))
        let (_, saveTime) = try measure {
            for (i, data) in photos.enumerated() {
                try library.performChangesAndWait {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: data, options: nil)
                    request.creationDate = Date(timeIntervalSince1970: 1_700_000_000 + Double((i * 7919) % count) * 60)
                }
            }
        }
        report("library.save_1000_changes.time", saveTime, "s", format: "%.2f",
               anchor: String(format: "%.1f ms a photo: performChangesAndWait per photo (file fsync + transaction)", saveTime / Double(count) * 1000))
        let sizes = try folderSizes(library.url)
        report("library.database.size", sizes.database, "MB", format: "%.2f")
        report("library.store.size", sizes.store, "MB", format: "%.1f", anchor: String(format: "the photos themselves: %.1f MB", megabytes))
        let sort = PHFetchOptions()
        sort.sortDescriptors = [NSSortDescriptor(keyPath: \PHAsset.creationDate, ascending: false)]
        let reopened = PHPhotoLibrary(url: library.url)
        let (first, openTime) = measure { reopened.fetchAssets(with: sort).count }
        let times = (0..<max(3, options.repetitions)).map { _ in measure { reopened.fetchAssets(with: sort).count }.1 }
        report("library.fetch_sorted_1000.time", median(times) * 1000, "ms", format: "%.1f",
               anchor: String(format: "%d assets by creationDate, newest first; first fetch (opening, recovery scan) %.0f ms", first, openTime * 1000))
    }

    static func folderSizes(_ root: URL) throws -> (database: Double, store: Double) {
        let fm = FileManager.default
        func size(_ path: String) -> Double { Double((try? fm.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) }
        let database = ["Photos.sqlite", "Photos.sqlite-wal", "Photos.sqlite-shm"].map { size(root.appendingPathComponent($0).path) }.reduce(0, +)
        let originals = root.appendingPathComponent("originals")
        let store = (fm.subpaths(atPath: originals.path) ?? []).map { size(originals.appendingPathComponent($0).path) }.reduce(0, +)
        return (database / 1_048_576, store / 1_048_576)
    }
}
