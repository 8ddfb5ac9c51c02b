import Foundation
import Testing
@testable import CaptureCore

/// `TemporaryFiles` keeps the paths in flight (`removeAll`, which ends them, is tested through the command:
/// InterruptTests — here it would remove other tests' files in flight).
@Suite struct TemporaryFilesTests {
    @Test func pathsAreKeptFromRegisterToRelease() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(".opencapture-\(UUID().uuidString).partial")
        #expect(!TemporaryFiles.isRegistered(url))
        TemporaryFiles.register(url)
        #expect(TemporaryFiles.isRegistered(url))
        TemporaryFiles.release(url)
        #expect(!TemporaryFiles.isRegistered(url))
    }
}
