import Foundation
import GRDB
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

/// A video whose track matrix turns it a quarter (an upright phone's, stored landscape) has the size it is shown at,
/// as Photos reports it: portrait.
@Suite struct TurnedVideoSizeTests {
    /// Saves the movie at `url` as a video asset and fetches it.
    static func save(_ url: URL, in library: PHPhotoLibrary) throws -> PHAsset {
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .video, fileURL: url, options: nil) }
        return try #require(library.fetchAssets().firstObject)
    }

    /// Ours, turned 90° and 180° (a half turn keeps the sides), and the header's own view of it.
    @Test(arguments: [0, 90, 180])
    func ourTurnedMovieIsSizedAsShown(rotation: Int) throws {
        let (width, height) = rotation == 90 ? (32, 64) : (64, 32)
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("turned.mov")
        try HalvesMovieFixture.make(at: movie, width: 64, height: 32, rotation: rotation)
        let track = try #require(try QuickTimeMovie.parse(Data(contentsOf: movie)).videoTrack)
        #expect(track.width == 64 && track.height == 32, "tkhd keeps the stored size")
        #expect(track.displayMatrix.exifOrientation == [0: 1, 90: 6, 180: 3][rotation])
        let asset = try Self.save(movie, in: library)
        #expect(asset.pixelWidth == width && asset.pixelHeight == height, "\(rotation)°: \(asset.pixelWidth)×\(asset.pixelHeight)")
    }

    /// FFmpeg's `rotate` tag (a quarter turn counter-clockwise): portrait too.
    @Test(.enabled(if: ExternalTool.ffmpeg.isInstalled, "ffmpeg not installed"))
    func ffmpegsTurnedMovieIsSizedAsShown() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4"), turned = folder.appendingPathComponent("turned.mp4")
        for arguments in [["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=96x48:r=10:d=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain.path],
                          ["-v", "error", "-y", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned.path]] {
            let run = try ExternalTool.ffmpeg.run(arguments)
            try #require(run.status == 0, "\(run.errorOutput)")
        }
        let asset = try Self.save(turned, in: library)
        #expect(asset.pixelWidth == 48 && asset.pixelHeight == 96)
    }

    /// A library that saved a turned video at its stored size (before v5): opening it turns the size once.
    @Test func earlierTurnedVideosAreResizedOnce() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let movie = folder.appendingPathComponent("turned.mov")
        try HalvesMovieFixture.make(at: movie, width: 64, height: 32, rotation: 270)
        _ = try Self.save(movie, in: library)
        let database = try DatabaseQueue(path: library.url.appendingPathComponent("Photos.sqlite").path)
        try database.write { db in
            try db.execute(sql: "UPDATE asset SET pixelWidth = 64, pixelHeight = 32")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v5:%'")
        }
        try database.close()
        let video = try #require(PHPhotoLibrary(url: library.url).fetchAssets().firstObject)
        #expect(video.pixelWidth == 32 && video.pixelHeight == 64)
    }
}
