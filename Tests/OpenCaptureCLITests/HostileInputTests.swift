import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// The `opencapture` executable in the build folder that holds this test bundle, when it was built.
enum OpenCaptureBinary {
    static let tool: ExternalTool = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let found = [folder, folder.deletingLastPathComponent()].map { $0.appendingPathComponent("opencapture") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return ExternalTool(name: "opencapture", at: found)
    }()
}

/// Runs the built `opencapture` binary (next to the test bundle) on hostile inputs and impossible
/// values: each gives one line on stderr, a non-zero exit, and no output file.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct HostileInputTests {
    struct Outcome {
        var status: Int32
        var stderr: String
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    static func run(_ arguments: [String], in folder: URL) throws -> Outcome {
        let result = try OpenCaptureBinary.tool.run(arguments, in: folder)
        return Outcome(status: result.status, stderr: result.errorOutput)
    }

    /// A scratch folder holding a few hostile files.
    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let image = Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 100)
        let jpeg = try JPEGEncoder.encode(image)
        try jpeg.write(to: folder.appendingPathComponent("good.jpg"))
        try jpeg.write(to: folder.appendingPathComponent("good2.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: folder.appendingPathComponent("cut.jpg"))
        try PNGCodec.encode(Raster<UInt8>(width: 32, height: 48, channels: 3, repeating: 9)).write(to: folder.appendingPathComponent("narrow.png"))
        try Data().write(to: folder.appendingPathComponent("empty.dng"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("text.heic"))
        try Data([0]).write(to: folder.appendingPathComponent("a-file"))
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0, 0, 0, 0, 0]) + Data(repeating: 0, count: 105)
        try png.write(to: folder.appendingPathComponent("huge.png"))
        return folder
    }

    /// A JPEG whose appended MPF depth image is cut short: inspect shows what it could read, says what is damaged and
    /// exits 1.
    @Test func inspectShowsTheRestOfAFileWithADamagedDepthMapAndFails() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disparity = Raster<Float>(width: 64, height: 48, channels: 1, repeating: 0.5)
        let depth = DepthAuxiliaryImage(map: DepthMap(values: disparity, kind: .disparity, accuracy: .relative, isFiltered: true))
        let jpeg = try JPEGEncoder.encode(Raster<UInt8>(width: 128, height: 96, channels: 3, repeating: 90), depth: depth)
        let index = try #require(try MultiPictureIndex.read(jpeg: jpeg))
        try jpeg.prefix(index.entries[1].offset + 40).write(to: folder.appendingPathComponent("depth-cut.jpg"))
        try jpeg.write(to: folder.appendingPathComponent("depth.jpg"))
        let whole = try OpenCaptureBinary.tool.run(["inspect", "depth.jpg"], in: folder)
        #expect(whole.status == 0 && whole.output.contains("Size: 64×48"), "\(whole.output)")
        let cut = try OpenCaptureBinary.tool.run(["inspect", "depth-cut.jpg"], in: folder)
        #expect(cut.status == 1)
        #expect(cut.output.contains("128×96") && cut.output.contains("Depth"), "\(cut.output)")
        #expect(cut.errorOutput.contains("depth-cut.jpg: error: damaged depth"), "\(cut.errorOutput)")
    }

    /// A host name that resolves to nothing is one plain line, not NIO's "SocketAddressError.UnknownHost …".
    @Test func studioOnAnUnknownHostSaysSoPlainly() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Self.run(["studio", "--host", "nonexistent.invalid", "--port", "0", "--library", "library"], in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("--host") && !outcome.stderr.contains("SocketAddressError"),
                "\(outcome.stderr)")
    }

    /// A Live Photo into a folder it cannot write: one plain line before the camera starts, not, after the whole
    /// capture, the AVError's NSError dump naming a hidden temporary movie. (Root writes anywhere: not run as root.)
    @Test(.enabled(if: getuid() != 0, "root may write into a read-only folder"))
    func liveIntoAReadOnlyFolderSaysSoAtOnce() throws {
        let folder = try Self.scratch()
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        chmod(locked.path, 0o555)
        defer {
            chmod(locked.path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }
        let outcome = try Self.run(["live", "-o", "locked"], in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains("permission denied") && !outcome.stderr.contains("Domain"),
                "\(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path).isEmpty)
    }

    /// A folder that exists but where no file can be made, even by root: /proc.
    static let unwritableFolder = "/proc"

    /// A movie into a folder where no file can be made: one plain line naming it, before the camera starts (nothing on
    /// standard output), not "recording…" and then a failure.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs /proc"))
    func recordIntoAFolderThatTakesNoFileFailsBeforeTheCamera() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = Self.unwritableFolder + "/opencapture-test.mov"
        let result = try OpenCaptureBinary.tool.run(["record", "--preset", "low", "--duration", "0.2", "-o", destination], in: folder)
        #expect(result.status != 0)
        #expect(result.errorOutput.split(separator: "\n").count == 1 && result.errorOutput.contains(destination), "\(result.errorOutput)")
        #expect(result.output.isEmpty, "the camera started: \(result.output)")
    }

    /// `live` checks everything before it creates its folder or starts the camera: a folder where no file can be made
    /// is said before the viewfinder, and a refused option (a --date that is no date) leaves no new folder behind.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs /proc"))
    func liveChecksBeforeItCreatesOrStartsAnything() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unwritable = try OpenCaptureBinary.tool.run(["live", "-o", Self.unwritableFolder], in: folder)
        #expect(unwritable.status != 0)
        #expect(unwritable.errorOutput.split(separator: "\n").count == 1 && unwritable.errorOutput.contains(Self.unwritableFolder),
                "\(unwritable.errorOutput)")
        #expect(!unwritable.output.contains("viewfinder"), "the camera started: \(unwritable.output)")
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let badDate = try OpenCaptureBinary.tool.run(["live", "--date", "someday", "-o", "new/live"], in: folder)
        #expect(badDate.status != 0 && badDate.errorOutput.contains("--date"), "\(badDate.errorOutput)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before, "a folder was created")
    }

    /// A Motion Photo that cannot be written says so about the path the user gave, not the hidden temporary file beside
    /// it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self"), "needs /proc"))
    func motionPhotoIntoAFolderThatTakesNoFileNamesTheUsersPath() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder)
        let destination = Self.unwritableFolder + "/opencapture-test.jpg"
        let outcome = try Self.run(["export-motion-photo", pair.still.path, pair.movie.path, "-o", destination], in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1 && outcome.stderr.contains(destination), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains(Self.unwritableFolder + "/."), "names a hidden temporary file: \(outcome.stderr)")
    }

    static let cases: [(String, [String])] = [
        ("fuse truncated", ["fuse", "good.jpg", "cut.jpg", "-o", "out/fused.jpg"]),
        ("fuse one file twice", ["fuse", "good.jpg", "./good.jpg", "-o", "fused.jpg"]),
        ("record over a file", ["record", "--preset", "low", "--duration", "0.2", "-o", "good.jpg"]),
        ("motion photo over a file", ["export-motion-photo", "good.jpg", "missing.mov", "-o", "good2.jpg"]),
        ("fuse sizes differ", ["fuse", "good.jpg", "narrow.png", "-o", "out/fused.jpg"]),
        ("fuse lying header", ["fuse", "good.jpg", "huge.png", "-o", "out/fused.jpg"]),
        ("fuse empty", ["fuse", "good.jpg", "empty.dng", "-o", "out/fused.jpg"]),
        ("fuse wrong extension", ["fuse", "good.jpg", "text.heic", "-o", "out/fused.jpg"]),
        ("fuse missing folder", ["fuse", "good.jpg", "good2.jpg", "-o", "missing/fused.jpg"]),
        ("fuse output under a file", ["fuse", "good.jpg", "good2.jpg", "-o", "a-file/fused.jpg"]),
        ("fuse bad exposures", ["fuse", "good.jpg", "good2.jpg", "--exposures", "1,,2", "-o", "out/fused.jpg"]),
        ("fuse into a PNG name", ["fuse", "good.jpg", "good2.jpg", "-o", "out/fused.png"]),
        ("fuse --hdr without exposures", ["fuse", "good.jpg", "good2.jpg", "--hdr", "-o", "out/fused.jpg"]),
        ("fuse over an input", ["fuse", "good.jpg", "good2.jpg", "-o", "good2.jpg"]),
        ("develop empty output folder", ["develop", "empty.dng", "-o", ""]),
        ("develop huge sharpening", ["develop", "empty.dng", "--sharpening", "1e9", "-o", "out"]),
        ("develop negative quality", ["develop", "empty.dng", "--quality", "-1", "-o", "out"]),
        ("inspect a device", ["inspect", "/dev/zero"]),
        ("shoot format none without raw", ["shoot", "--format", "none", "--preset", "low", "-o", "out"]),
        ("develop empty", ["develop", "empty.dng", "-o", "out"]),
        ("develop not raw", ["develop", "good.jpg", "-o", "out"]),
        ("develop output is a file", ["develop", "good.jpg", "-o", "a-file/sub"]),
        ("inspect empty", ["inspect", "empty.dng"]),
        ("inspect truncated", ["inspect", "cut.jpg"]),
        ("inspect wrong extension", ["inspect", "text.heic"]),
        ("inspect missing", ["inspect", "missing.jpg"]),
        ("shoot ISO 0", ["shoot", "--iso", "0", "--duration", "1/100", "--preset", "low", "-o", "out"]),
        ("shoot ISO 1e9", ["shoot", "--iso", "1e9", "--duration", "1/100", "--preset", "low", "-o", "out"]),
        ("shoot zero duration", ["shoot", "--iso", "100", "--duration", "0", "--preset", "low", "-o", "out"]),
        ("shoot negative duration", ["shoot", "--iso", "100", "--duration", "-1/100", "--preset", "low", "-o", "out"]),
        ("shoot unparsable duration", ["shoot", "--iso", "100", "--duration", "soon", "--preset", "low", "-o", "out"]),
        ("shoot bias 100", ["shoot", "--bias", "100", "--preset", "low", "-o", "out"]),
        ("shoot into a file", ["shoot", "--preset", "low", "-o", "a-file"]),
        ("shoot depth type without depth", ["shoot", "--device", "dual", "--depth-type", "depth", "--preset", "low", "-o", "out"]),
        ("shoot focus point outside", ["shoot", "--focus-point", "1.5,0", "--preset", "low", "-o", "out"]),
        ("bracket empty ev", ["bracket", "--ev=-2,,2", "--preset", "low", "-o", "out"]),
        ("bracket ev 100", ["bracket", "--ev=-2,0,100", "--preset", "low", "-o", "out"]),
        ("shoot empty output folder", ["shoot", "--preset", "low", "-o", ""]),
        ("bracket empty output folder", ["bracket", "--ev=0", "--preset", "low", "-o", ""]),
        ("live empty output folder", ["live", "-o", ""]),
        ("record empty output name", ["record", "--preset", "low", "--duration", "0.2", "-o", ""]),
        ("record too short to end", ["record", "--preset", "low", "--duration", "1e-300", "-o", "clip.mov"]),
        // "Missing value for '--port <port>'" (-1 read as an option) and a server that tried to resolve "".
        ("studio negative port", ["studio", "--port", "-1"]),
        ("studio empty host", ["studio", "--host", "", "--port", "0"]),
        ("bracket manual ISO 0", ["bracket", "--manual", "1/60@0,1/30@100", "--preset", "low", "-o", "out"]),
    ]

    @Test(arguments: cases.map(\.0))
    func oneLineNonZeroExitNoOutput(_ name: String) throws {
        let arguments = try #require(Self.cases.first { $0.0 == name }?.1)
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let outcome = try Self.run(arguments, in: folder)
        #expect(outcome.status != 0, "\(name): exit \(outcome.status)")
        #expect(outcome.stderrLines.count == 1, "\(name): \(outcome.stderr)")
        #expect(!outcome.stderr.contains("NSCocoaErrorDomain") && !outcome.stderr.contains("Fatal error"), "\(name): \(outcome.stderr)")
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(after == before, "\(name) left \(Set(after).subtracting(before))")
    }
}
