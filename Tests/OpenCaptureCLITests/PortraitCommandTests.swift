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
        try DepthCommandTests.expectRefusal(try #require(Self.failures.first { $0.0 == name }?.1))
    }
}
