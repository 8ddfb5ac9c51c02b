import Foundation
import OpenCaptureTestSupport
import Testing

/// An interrupted `opencapture` removes the hidden temporary files of the writes in flight and ends by the signal.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct InterruptTests {
    /// Runs `opencapture arguments`, waits (up to 30 s, looking every `poll` seconds) for a hidden temporary file to
    /// appear in `folder`, then sends SIGTERM and waits for the process to end.
    static func terminateWhileWriting(_ arguments: [String], into folder: URL, poll: TimeInterval = 0.02) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(OpenCaptureBinary.tool.path))
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var hidden: [String] = []
        while hidden.isEmpty, process.isRunning, Date() < deadline {
            hidden = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
            if hidden.isEmpty { Thread.sleep(forTimeInterval: poll) }
        }
        #expect(!hidden.isEmpty, "no temporary file appeared in \(folder.lastPathComponent)")
        process.terminate()   // SIGTERM
        process.waitUntilExit()
        return process
    }

    @Test func aTerminatedRecordingLeavesNoTemporaryMovie() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The movie is written under a hidden temporary name while it records (seconds: the test waits for it).
        let process = try Self.terminateWhileWriting(["record", "--preset", "low", "--duration", "20", "-o",
                                                      folder.appendingPathComponent("clip.mov").path], into: folder)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// Ctrl-C while `library import` stores a file: the hidden temporary file goes with the process (the trial found
    /// `.tmp-<UUID>` files left in the store), and the library opens to what it held before.
    @Test func anInterruptedImportLeavesNoTemporaryFile() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos")
        let photo = try LibraryCommandTests.photo(7, in: folder, name: "IMG_0007.JPG")
        let (_, killed) = try LibraryCommandTests.run(["library", "import", photo.path, "--library", library.path],
                                                      environment: ["OPENCAPTURE_PHOTOS_FAULT": "interrupt-during-store-write"])
        #expect(killed)
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: library.appendingPathComponent("originals").path)) ?? []
        #expect(!left.contains { $0.split(separator: "/").last?.hasPrefix(".tmp-") == true }, "\(left)")
        #expect(try OpenCaptureBinary.tool.run(["library", "list", "--library", library.path]).output.hasPrefix("0 assets"))
    }

    /// Ctrl-C or `kill` while `develop` writes a TIFF into a folder it made: the folder goes with the temporary file (it
    /// is made before the photo is developed band by band into it, and was left behind empty).
    @Test func aTerminatedDevelopLeavesNoFolderItMade() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = try OpenCaptureBinary.tool.run(["shoot", "--raw", "--format", "none", "-o", folder.path])
        #expect(shot.status == 0, "\(shot.errorOutput)")
        let dng = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".dng") })
        let output = folder.appendingPathComponent("made/developed")
        // The TIFF is written under a hidden temporary name while the photo develops (a tenth of a second or more at 12 MP).
        let process = try Self.terminateWhileWriting(["develop", folder.appendingPathComponent(dng).path, "--format", "tiff16",
                                                      "-o", output.path], into: output, poll: 0.005)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [dng])
    }
}
