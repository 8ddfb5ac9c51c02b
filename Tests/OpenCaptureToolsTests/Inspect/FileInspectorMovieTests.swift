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
}
