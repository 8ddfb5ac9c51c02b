import Foundation
import OpenCaptureTestSupport
import Testing

/// The shared test-support target itself: the tool runner and the ../shared locator.
@Suite struct TestSupportTests {
    @Test func repositoryRootHoldsThePackage() {
        let manifest = SharedData.repositoryRoot.appendingPathComponent("Package.swift")
        #expect(FileManager.default.fileExists(atPath: manifest.path))
    }

    @Test func sharedFolderIsBesideTheRepositoryOrAbsent() {
        if let folder = SharedData.folder {
            #expect(folder.lastPathComponent == "shared")
            #expect(folder.deletingLastPathComponent().path == SharedData.repositoryRoot.deletingLastPathComponent().standardizedFileURL.path)
        }
        #expect(SharedData.file("no/such/file-\(UUID().uuidString)") == nil)
    }

    @Test func missingToolIsNotInstalledAndThrows() {
        let tool = ExternalTool("opencapture-no-such-tool-\(UUID().uuidString.prefix(8))")
        #expect(!tool.isInstalled)
        #expect(tool.path == nil)
        #expect(throws: ExternalTool.Failure.self) { try tool.run([]) }
    }

    @Test(.enabled(if: ExternalTool("sh").isInstalled, "no sh on PATH"))
    func runnerSeparatesOutputErrorAndStatus() throws {
        let result = try ExternalTool("sh").run(["-c", "printf out; printf err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.output == "out")
        #expect(result.errorOutput == "err")
    }

    @Test(.enabled(if: ExternalTool("cat").isInstalled, "no cat on PATH"))
    func runnerPassesDataThroughATemporaryFile() throws {
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let result = try ExternalTool("cat").run([], file: bytes, fileExtension: "bin")
        #expect(result.status == 0)
        #expect(result.standardOutput == bytes)
    }
}
