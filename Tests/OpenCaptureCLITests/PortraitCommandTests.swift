import Foundation
import OpenCaptureTestSupport
import Testing

/// `opencapture portrait` refuses what it cannot do in one line and writes nothing.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct PortraitCommandTests {
    static let failures: [(String, [String])] = [
        ("output not JPEG", ["portrait", "left.png", "-o", "out.png"]),
        ("photo without depth", ["portrait", "left.png", "-o", "out.jpg"]),
        ("not an image", ["portrait", "text.png", "-o", "out.jpg"]),
        ("bad aperture", ["portrait", "left.png", "--aperture", "0", "-o", "out.jpg"]),
    ]

    @Test func anExistingOutputIsKeptUnlessOverwriteIsGiven() throws {
        let folder = try DepthCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.jpg")
        try Data("my own photo".utf8).write(to: output)
        let refused = try HostileInputTests.run(["portrait", "left.png", "-o", "out.jpg"], in: folder)
        #expect(refused.status != 0 && refused.stderrLines.count == 1 && refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        // With --overwrite the photo is read (it has no depth: refused for that), and the file is still kept.
        let noDepth = try HostileInputTests.run(["portrait", "left.png", "--overwrite", "-o", "out.jpg"], in: folder)
        #expect(noDepth.status != 0 && !noDepth.stderr.contains("--overwrite"), "\(noDepth.stderr)")
        #expect(try Data(contentsOf: output) == Data("my own photo".utf8))
    }

    /// An aperture or focus the renderer cannot use is named before the photo is read: f/0.5 was refused only after
    /// reading, as "<photo>: --aperture 0.5 …", and a missing photo hid it behind "cannot read".
    @Test(arguments: [["--aperture", "0.5"], ["--focus-distance", "0.01"]])
    func anImpossibleLensIsNamedBeforeThePhotoIsRead(_ lens: [String]) throws {
        let folder = try DepthCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try HostileInputTests.run(["portrait", "missing.jpg", "-o", "out.jpg"] + lens, in: folder)
        #expect(outcome.status != 0 && outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(lens[0]) && !outcome.stderr.contains("missing.jpg"), "\(outcome.stderr)")
    }

    @Test(arguments: failures.map(\.0))
    func badInputIsOneLineAndNothingWritten(_ name: String) throws {
        try DepthCommandTests.expectRefusal(try #require(Self.failures.first { $0.0 == name }?.1))
    }
}
