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

    @Test(arguments: failures.map(\.0))
    func badInputIsOneLineAndNothingWritten(_ name: String) throws {
        let arguments = try #require(Self.failures.first { $0.0 == name }?.1)
        let folder = try DepthCommandTests.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let outcome = try HostileInputTests.run(arguments, in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
    }
}
