import Foundation
import OpenCaptureTestSupport
import Testing

/// `shoot` and `bracket` number their files on, as a camera does: a later run never replaces an earlier one's photos.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct ShootCommandTests {
    @Test func laterRunsNumberOnInsteadOfReplacing() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A file of the user's under the first name, and one whose name only looks numbered.
        try Data("mine".utf8).write(to: folder.appendingPathComponent("photo-1.jpg"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("photo-12x.txt"))

        let first = try OpenCaptureBinary.tool.run(["shoot", "--preset", "low", "--count", "2", "-o", folder.path])
        #expect(first.status == 0, "\(first.errorOutput)")
        let second = try OpenCaptureBinary.tool.run(["shoot", "--preset", "low", "--raw", "-o", folder.path])
        #expect(second.status == 0, "\(second.errorOutput)")
        let names = try Set(FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(names == ["photo-1.jpg", "photo-12x.txt", "photo-2.jpg", "photo-3.jpg", "photo-4.dng", "photo-4.jpg"])
        // Numbers past a billion are numbers too (the next one is not a name already taken).
        try Data("big".utf8).write(to: folder.appendingPathComponent("photo-1000000000.jpg"))
        let big = try OpenCaptureBinary.tool.run(["shoot", "--preset", "low", "-o", folder.path])
        #expect(big.status == 0, "\(big.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("photo-1000000001.jpg").path))
        #expect(try Data(contentsOf: folder.appendingPathComponent("photo-1.jpg")) == Data("mine".utf8))
        // The second request of a run is labelled as itself, with times counting on from the first.
        let finished = first.output.split(separator: "\n").filter { $0.contains("didFinishProcessingPhoto") }
        #expect(finished.count == 2 && finished[0].contains("#1") && finished[1].contains("#2"), "\(first.output)")
        let times = finished.compactMap { Double($0.split(separator: " ").first ?? "") }
        #expect(times.count == 2 && times[0] < times[1], "\(finished)")
    }

    @Test func aSecondBracketKeepsTheFirstOnesFusedFiles() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 0..<2 {
            let run = try OpenCaptureBinary.tool.run(["bracket", "--preset", "low", "--ev=-2,0,2", "--fuse", "-o", folder.path])
            #expect(run.status == 0, "\(run.errorOutput)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        for set in ["bracket-1", "bracket-2"] {
            #expect(names.filter { $0.hasPrefix(set + "-") }.count == 6, "\(names.sorted())")
        }
        // A RAW + JPEG bracket names each shot's pair by the shot's number.
        let raw = try OpenCaptureBinary.tool.run(["bracket", "--preset", "low", "--ev=-1,1", "--raw", "-o", folder.path])
        #expect(raw.status == 0, "\(raw.errorOutput)")
        let third = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("bracket-3-") }
        #expect(Set(third) == ["bracket-3-1.dng", "bracket-3-1.jpg", "bracket-3-2.dng", "bracket-3-2.jpg"], "\(third.sorted())")
    }

    /// Depth asked of a camera that measures it, in a format without depth: the message says which format has it.
    @Test func depthInAFormatWithoutItNamesThePhotoPreset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-depth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try OpenCaptureBinary.tool.run(["shoot", "--device", "dual", "--depth", "--preset", "hd720", "-o", folder.path])
        #expect(run.status != 0)
        #expect(run.errorOutput.contains("photo preset") && !run.errorOutput.contains("does not measure depth"), "\(run.errorOutput)")
        let single = try OpenCaptureBinary.tool.run(["shoot", "--device", "wide", "--depth", "-o", folder.path])
        #expect(single.status != 0 && single.errorOutput.contains("does not measure depth"), "\(single.errorOutput)")
        let flash = try OpenCaptureBinary.tool.run(["shoot", "--device", "front", "--flash", "on", "-o", folder.path])
        #expect(flash.status != 0 && flash.errorOutput.contains("no flash"), "\(flash.errorOutput)")
    }
}
