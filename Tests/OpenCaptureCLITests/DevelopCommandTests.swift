import Foundation
import OpenCaptureTestSupport
import Testing

/// `opencapture develop` never replaces a file it did not just make unless asked, and reads negative values.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct DevelopCommandTests {
    @Test func theCamerasOwnJPEGBesideItsRAWIsNotReplaced() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = try OpenCaptureBinary.tool.run(["shoot", "--preset", "low", "--raw", "--format", "none", "-o", folder.path])
        #expect(shot.status == 0, "\(shot.errorOutput)")
        let dng = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".dng") })
        let base = String(dng.dropLast(4))
        // The camera's JPEG of the same shot, as a RAW + JPEG capture leaves it.
        let jpeg = folder.appendingPathComponent(base + ".jpg")
        try Data("the camera's own JPEG".utf8).write(to: jpeg)

        let refused = try HostileInputTests.run(["develop", dng, "-o", "."], in: folder)
        #expect(refused.status != 0)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        #expect(try Data(contentsOf: jpeg) == Data("the camera's own JPEG".utf8))

        let replaced = try OpenCaptureBinary.tool.run(["develop", dng, "--overwrite", "--exposure", "-1", "-o", "."], in: folder)
        #expect(replaced.status == 0, "\(replaced.errorOutput)")
        #expect(try Data(contentsOf: jpeg).prefix(2) == Data([0xFF, 0xD8]))

        // Two inputs of one name into one folder: the second is refused, the first kept.
        let other = folder.appendingPathComponent("other", isDirectory: true)
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.appendingPathComponent(dng), to: other.appendingPathComponent(dng))
        let twice = try HostileInputTests.run(["develop", dng, "other/" + dng, "--format", "png", "-o", "out"], in: folder)
        #expect(twice.status != 0 && twice.stderr.contains("earlier input"), "\(twice.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/\(base).png").path))

        // A raw named .tif (as some cameras name theirs) developed to TIFF beside itself: refused even with
        // --overwrite, the raw untouched.
        let tif = folder.appendingPathComponent("raw.tif")
        try FileManager.default.copyItem(at: folder.appendingPathComponent(dng), to: tif)
        let original = try Data(contentsOf: tif)
        let itself = try HostileInputTests.run(["develop", "raw.tif", "--format", "tiff", "--overwrite", "-o", "."], in: folder)
        #expect(itself.status != 0 && itself.stderr.contains("raw file itself"), "\(itself.stderr)")
        #expect(try Data(contentsOf: tif) == original)

        // Nor over another raw of the run: a raw named a.jpg kept when a.dng develops to JPEG beside it.
        try FileManager.default.copyItem(at: folder.appendingPathComponent(dng), to: folder.appendingPathComponent("a.dng"))
        try FileManager.default.copyItem(at: folder.appendingPathComponent(dng), to: folder.appendingPathComponent("a.jpg"))
        let disguised = try Data(contentsOf: folder.appendingPathComponent("a.jpg"))
        for order in [["a.jpg", "a.dng"], ["a.dng", "a.jpg"]] {
            let other = try HostileInputTests.run(["develop"] + order + ["--overwrite", "-o", "."], in: folder)
            #expect(other.status != 0 && other.stderr.contains("an input of this run"), "\(other.stderr)")
            #expect(try Data(contentsOf: folder.appendingPathComponent("a.jpg")) == disguised)
        }

        // A symbolic link named like the output is a file there, even one that points nowhere: kept.
        let link = folder.appendingPathComponent(base + ".png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nonexistent/elsewhere.png")
        let dangling = try HostileInputTests.run(["develop", dng, "--format", "png", "-o", "."], in: folder)
        #expect(dangling.status != 0 && dangling.stderr.contains("--overwrite"), "\(dangling.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "/nonexistent/elsewhere.png")
    }
}
