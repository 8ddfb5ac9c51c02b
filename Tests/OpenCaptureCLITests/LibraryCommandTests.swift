import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// `opencapture library`: imports that land whole, and a process killed between storing the files
/// and committing the transaction that leaves a consistent library behind.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct LibraryCommandTests {
    static func photo(_ seed: Int, in folder: URL, name: String) throws -> URL {
        var image = Raster<UInt8>(width: 40, height: 30, channels: 3)
        for y in 0..<30 { for x in 0..<40 { for c in 0..<3 { image[x, y, c] = UInt8((x * 5 + y * 3 + c * 60 + seed * 31) % 256) } } }
        let url = folder.appendingPathComponent(name)
        try JPEGEncoder.encode(image, quality: 90).write(to: url)
        return url
    }

    /// Runs the binary with an extra environment; returns (status, killed by a signal).
    static func run(_ arguments: [String], environment: [String: String]) throws -> (Int32, Bool) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(OpenCaptureBinary.tool.path))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }

    static func storedFiles(_ library: URL) -> Int {
        let originals = library.appendingPathComponent("originals")
        return ((try? FileManager.default.subpathsOfDirectory(atPath: originals.path)) ?? [])
            .filter { !$0.hasSuffix("/") && $0.split(separator: "/").count == 2 }.count
    }

    @Test func aKilledImportLeavesAConsistentLibrary() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path
        let first = try Self.photo(1, in: folder, name: "IMG_0001.JPG")
        let second = try Self.photo(2, in: folder, name: "IMG_0002.JPG")
        let third = try Self.photo(3, in: folder, name: "IMG_0003.JPG")
        var result = try OpenCaptureBinary.tool.run(["library", "import", first.path, "--library", library])
        #expect(result.status == 0)

        // Killed after the files are stored, before the transaction: the process dies by SIGKILL.
        let (_, killed) = try Self.run(["library", "import", second.path, third.path, "--library", library],
                                       environment: ["OPENCAPTURE_PHOTOS_FAULT": "after-store-write"])
        #expect(killed)
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 3)   // the orphans are on disk…

        // …and the next open finds one asset and removes them.
        result = try OpenCaptureBinary.tool.run(["library", "list", "--library", library])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("1 asset in "))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 1)

        // The same import, not interrupted, lands whole.
        result = try OpenCaptureBinary.tool.run(["library", "import", second.path, third.path, "--library", library])
        #expect(result.status == 0)
        result = try OpenCaptureBinary.tool.run(["library", "list", "--library", library])
        #expect(result.output.hasPrefix("3 assets in "))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 3)
    }

    /// Export, edit and delete by the identifiers `list` prints (or their start): export copies the originals
    /// under their names and replaces nothing; edit and delete change the library, and an identifier it does not hold
    /// fails the whole command.
    @Test func assetsAreExportedEditedAndDeleted() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path, tool = OpenCaptureBinary.tool
        let first = try Self.photo(5, in: folder, name: "IMG_0005.JPG"), second = try Self.photo(6, in: folder, name: "IMG_0006.JPG")
        #expect(try tool.run(["library", "import", first.path, second.path, "--library", library]).status == 0)
        let ids = try tool.run(["library", "list", "--library", library]).output.split(separator: "\n").dropFirst()
            .map { String($0.split(separator: " ")[0]) }
        try #require(ids.count == 2)
        let uuid = String(ids[0].prefix(8)).lowercased()

        let exported = folder.appendingPathComponent("out")
        #expect(try tool.run(["library", "export", uuid, ids[1], "-o", exported.path, "--library", library]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: exported.path).sorted()
        #expect(names == ["IMG_0005.JPG", "IMG_0006.JPG"])
        #expect(try Data(contentsOf: exported.appendingPathComponent("IMG_0005.JPG")) == Data(contentsOf: first))
        var result = try tool.run(["library", "export", ids[0], "-o", exported.path, "--library", library])
        #expect(result.status != 0 && result.errorOutput.contains("exists"))

        #expect(try tool.run(["library", "edit", uuid, "--favorite", "--hidden", "--library", library]).status == 0)
        #expect(try tool.run(["library", "list", "--library", library]).output.hasPrefix("1 asset in "))
        result = try tool.run(["library", "list", "--hidden", "--library", library])
        #expect(result.output.contains("[favourite, hidden]"))

        result = try tool.run(["library", "delete", ids[1], "NOT-AN-ASSET", "--library", library])
        #expect(result.status != 0 && result.errorOutput.contains("NOT-AN-ASSET"))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 2)
        #expect(try tool.run(["library", "delete", ids[1], "--library", library]).status == 0)
        result = try tool.run(["library", "list", "--hidden", "--library", library])
        #expect(result.output.hasPrefix("1 asset in ") && result.output.contains(ids[0]))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 1)
    }

    /// A file that is no photo is left out with one line and the rest imported (exit status 1, as `cp` does when some
    /// files fail), as Photos' import does; with --all-or-nothing it fails the import and nothing is imported.
    @Test func aBadFileIsOneLineAndLeftOut() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path
        let good = try Self.photo(4, in: folder, name: "good.jpg")
        let bad = folder.appendingPathComponent("bad.jpg"), notes = folder.appendingPathComponent("notes.txt")
        try Data("not a photo".utf8).write(to: bad)
        try Data("shopping list".utf8).write(to: notes)
        var result = try OpenCaptureBinary.tool.run(["library", "import", good.path, bad.path, "--all-or-nothing", "--library", library])
        #expect(result.status != 0)
        #expect(result.errorOutput.contains("not a JPEG"))
        #expect(try OpenCaptureBinary.tool.run(["library", "list", "--library", library]).output.hasPrefix("0 assets"))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 0)

        result = try OpenCaptureBinary.tool.run(["library", "import", good.path, bad.path, notes.path, "--library", library])
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("bad.jpg not imported: ") && result.errorOutput.contains("not a JPEG"))
        #expect(result.errorOutput.contains("notes.txt"), "\(result.errorOutput)")
        #expect(result.output.contains("imported 1 asset into") && result.output.contains("left out 2"))
        #expect(try OpenCaptureBinary.tool.run(["library", "list", "--library", library]).output.hasPrefix("1 asset in "))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 1)
    }

    /// A DNG LibRaw cannot read (a 2×2 one, one whose tile table is short) is left out as any unreadable file is — one
    /// line naming it and why, the rest imported, exit status 1 — where it was imported and never shown.
    @Test func aDNGLibRawCannotReadIsLeftOut() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path
        let good = try Self.photo(6, in: folder, name: "good.jpg")
        let files = try [("tiny.dng", UnreadableDNGFixture.tiny()), ("tiles.dng", UnreadableDNGFixture.shortTileTable()),
                         ("ramp.dng", UnreadableDNGFixture.dng(width: 48, height: 32))].map { name, data -> URL in
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        let result = try OpenCaptureBinary.tool.run(["library", "import", good.path] + files.map(\.path) + ["--library", library])
        #expect(result.status == 1)
        for name in ["tiny.dng", "tiles.dng"] {
            #expect(result.errorOutput.contains("\(name) not imported: ") && result.errorOutput.contains("\(name)) is a DNG that cannot be read: "),
                    "\(result.errorOutput)")
        }
        #expect(!result.errorOutput.contains("ramp.dng"), "\(result.errorOutput)")
        #expect(result.output.contains("imported 2 assets into") && result.output.contains("left out 2"), "\(result.output)")
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 2)
    }

    /// Two photos of one name (an export's HEIC and JPEG of different shots) are two assets: the second was dropped
    /// without a word; a movie of the still's name that is not its Live Photo movie is a video of its own, said.
    @Test func filesOfOneNameThatDoNotBelongTogetherAreAllImported() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path
        let first = try Self.photo(5, in: folder, name: "IMG_0002.JPG")
        let second = try Self.photo(6, in: folder, name: "IMG_0002.jpeg")
        let pair = try LivePhotoPairFixture.make(in: folder, pairingAtoms: false)
        let result = try OpenCaptureBinary.tool.run(["library", "import", first.path, second.path, pair.still.path, pair.movie.path,
                                                     "--library", library])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.contains("IMG_0001.MOV is imported as a video of its own"))
        #expect(result.output.contains("imported 4 assets"))
        let list = try OpenCaptureBinary.tool.run(["library", "list", "--library", library]).output
        #expect(list.hasPrefix("4 assets"))
        #expect(!list.contains("Live"))
        #expect(Self.storedFiles(URL(fileURLWithPath: library)) == 4)
    }

    /// Importing the same photo again does not make a second asset (as Photos' import skips duplicates), and says
    /// so; `--allow-duplicates` imports it anyway.
    @Test func aPhotoAlreadyInTheLibraryIsNotImportedAgain() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("Photos").path
        let photo = try Self.photo(8, in: folder, name: "IMG_0008.JPG")
        let other = try Self.photo(9, in: folder, name: "IMG_0009.JPG")
        #expect(try OpenCaptureBinary.tool.run(["library", "import", photo.path, "--library", library]).status == 0)
        var result = try OpenCaptureBinary.tool.run(["library", "import", photo.path, other.path, "--library", library])
        #expect(result.status == 0)
        #expect(result.output.contains("IMG_0008.JPG is already in the library"))
        #expect(result.output.contains("imported 1 asset "))
        #expect(try OpenCaptureBinary.tool.run(["library", "list", "--library", library]).output.hasPrefix("2 assets"))
        result = try OpenCaptureBinary.tool.run(["library", "import", photo.path, "--allow-duplicates", "--library", library])
        #expect(result.output.contains("imported 1 asset "))
        #expect(try OpenCaptureBinary.tool.run(["library", "list", "--library", library]).output.hasPrefix("3 assets"))
    }
}
