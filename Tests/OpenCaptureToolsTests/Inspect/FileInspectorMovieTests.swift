import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureTools

/// A movie is reported at the size players show it, its video track's turn named, the stored size beside it.
@Suite struct FileInspectorMovieTests {
    @Test(arguments: [(0, "64×32", nil), (90, "32×64", "turned 90° clockwise"), (180, "64×32", "turned 180°"),
                      (270, "32×64", "turned 90° counter-clockwise")])
    func aTurnedMovieIsReportedAsShown(rotation: Int, size: String, turn: String?) throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("turned.mov")
        try HalvesMovieFixture.make(at: url, width: 64, height: 32, rotation: rotation)
        let report = try FileInspector.inspect(contentsOf: url)
        #expect(report.kind == .movie)
        #expect("\(report.width ?? 0)×\(report.height ?? 0)" == size)
        #expect(report.value("Size", in: "File") == size)
        #expect(report.value("Rotation", in: "Movie") == turn.map { "\($0) (track matrix), stored 64×32" })
        let track = try #require(report.value("Track 1", in: "Movie"))
        let shown = turn.map { " shown \(size) (\($0))" } ?? ""
        #expect(track.hasPrefix("vide avc1 64×32\(shown), 3 frames"), "\(track)")
    }

    /// An anamorphic movie (320×240 frames of 4:3 pixels, shown 16:9) turned a quarter: stored is the coded size the
    /// sample description gives, shown the pixel aspect and the turn applied, whether the track header holds the widened
    /// size (MPEG-4, 426×240) or the coded one (QuickTime, as FFmpeg writes both). It said "stored 426×240", the track
    /// header's size, and showed the QuickTime movie 240×320.
    @Test(.enabled(if: ExternalTool.ffmpeg.isInstalled, "ffmpeg not installed"), arguments: ["mp4", "mov"])
    func anAnamorphicTurnedMovieIsReportedStoredAndShown(fileExtension: String) throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain.mp4"), turned = folder.appendingPathComponent("turned.\(fileExtension)")
        // FFmpeg 5 sets the turn only when copying (its `rotate` tag; newer FFmpeg has -display_rotation).
        let encode = try ExternalTool.ffmpeg.run(["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=30", "-t", "0.2",
                                                  "-aspect", "16:9", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain.path])
        try #require(encode.status == 0, "\(encode)")
        let copy = try ExternalTool.ffmpeg.run(["-v", "error", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=270", turned.path])
        try #require(copy.status == 0, "\(copy)")
        let track = try #require(try QuickTimeMovie.parse(Data(contentsOf: turned)).videoTrack)
        #expect(track.codedWidth == 320 && track.codedHeight == 240)
        #expect(track.pixelAspectHorizontal == 4 && track.pixelAspectVertical == 3)
        #expect(track.width == (fileExtension == "mp4" ? 426 : 320), "the track header's own size")
        let report = try FileInspector.inspect(contentsOf: turned)
        #expect("\(report.width ?? 0)×\(report.height ?? 0)" == "240×426")
        #expect(report.value("Size", in: "File") == "240×426")
        #expect(report.value("Pixel aspect", in: "Movie") == "4:3, stored 320×240 shown 426×240 before the turn")
        #expect(report.value("Rotation", in: "Movie") == "turned 90° clockwise (track matrix), stored 320×240")
        let line = try #require(report.value("Track 1", in: "Movie"))
        #expect(line.hasPrefix("vide avc1 320×240 shown 240×426 (4:3 pixels, turned 90° clockwise), 6 frames"), "\(line)")
    }
}
