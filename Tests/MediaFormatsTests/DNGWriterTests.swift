import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

@Suite struct DNGWriterTests {
    @Test func dumpForInspection() throws {
        let data = try DNGFixtures.dng()
        try data.write(to: URL(fileURLWithPath: "/tmp/oc-test.dng"))
    }
}
