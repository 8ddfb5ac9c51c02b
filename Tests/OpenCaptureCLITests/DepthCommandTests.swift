import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// `opencapture depth` on a small synthetic pair: a PFM of the right disparities, a PNG beside it,
/// and one-line errors with nothing written for bad input.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct DepthCommandTests {
    /// A textured pair: the background at disparity 12, a square at 20.
    static func writePair(in folder: URL) throws {
        var rng = RandomSource(seed: 11)
        let w = 120, h = 90
        let back = (0..<(w + 40) * h).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let front = (0..<(w + 40) * h).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var left = Raster<UInt8>(width: w, height: h, channels: 3), right = left
        for y in 0..<h { for x in 0..<w {
            let inRows = (30..<60).contains(y)
            let l = inRows && (50..<90).contains(x) ? front[y * (w + 40) + x] : back[y * (w + 40) + x]
            let r = inRows && (50..<90).contains(x + 20) ? front[y * (w + 40) + x + 20] : back[y * (w + 40) + x + 12]
            for c in 0..<3 { left[x, y, c] = l; right[x, y, c] = r }
        } }
        try PNGCodec.encode(left).write(to: folder.appendingPathComponent("left.png"))
        try PNGCodec.encode(right).write(to: folder.appendingPathComponent("right.png"))
        try PNGCodec.encode(Raster<UInt8>(width: 60, height: 90, channels: 3, repeating: 9)).write(to: folder.appendingPathComponent("small.png"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("text.png"))
    }

    static func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-depth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writePair(in: folder)
        return folder
    }

    @Test func writesTheDisparityAsPFMAndAColourPNG() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try OpenCaptureBinary.tool.run(["depth", "left.png", "right.png", "--max-disparity", "32",
                                                      "-o", "d.pfm", "--png", "d.png"], in: folder)
        #expect(result.status == 0, "\(result.errorOutput)")
        let map = try PFMCodec.decode(Data(contentsOf: folder.appendingPathComponent("d.pfm")))
        #expect(map.width == 120 && map.height == 90)
        #expect(abs(map[70, 45] - 20) < 0.5 && abs(map[100, 10] - 12) < 0.5)
        // Unknown is +inf (Middlebury's convention), e.g. the columns left of the smallest disparity.
        #expect(map[2, 10] == .infinity)
        let png = try PNGCodec.decode(Data(contentsOf: folder.appendingPathComponent("d.png")))
        #expect(png.width == 120 && png[2, 10, 0] == 0 && png[70, 45, 0] > png[70, 45, 2])
    }

    static let failures: [(String, [String])] = [
        ("sizes differ", ["depth", "left.png", "small.png", "-o", "d.pfm"]),
        ("not an image", ["depth", "left.png", "text.png", "-o", "d.pfm"]),
        ("missing file", ["depth", "left.png", "missing.png", "-o", "d.pfm"]),
        ("empty range", ["depth", "left.png", "right.png", "--min-disparity", "40", "--max-disparity", "40", "-o", "d.pfm"]),
        ("missing folder", ["depth", "left.png", "right.png", "-o", "nowhere/d.pfm"]),
        ("PFM under another name", ["depth", "left.png", "right.png", "-o", "d.png"]),
        // Written with a space, a negative number is still the option's value (refused by range, not parsed as a flag).
        ("negative minimum", ["depth", "left.png", "right.png", "--min-disparity", "-8", "-o", "d.pfm"]),
        // The default maximum is the minimum + 128: a minimum near Int.max must be refused, not overflow (it trapped).
        ("huge minimum", ["depth", "left.png", "right.png", "--min-disparity", "9223372036854775807", "-o", "d.pfm"]),
        // Never over an input (the picture was written over the left image), never a picture under another name.
        ("picture over an input", ["depth", "left.png", "right.png", "--max-disparity", "32", "-o", "d.pfm", "--png", "left.png"]),
        ("map over an input", ["depth", "left.png", "right.png", "--max-disparity", "32", "-o", "./right.png.pfm", "--png", "./right.png"]),
        ("picture not PNG", ["depth", "left.png", "right.png", "--max-disparity", "32", "-o", "d.pfm", "--png", "d.jpg"]),
    ]

    @Test(arguments: failures.map(\.0))
    func badInputIsOneLineAndNothingWritten(_ name: String) throws {
        try Self.expectRefusal(try #require(Self.failures.first { $0.0 == name }?.1))
    }

    @Test func anExistingMapOrPictureIsKeptUnlessOverwriteIsGiven() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["depth", "left.png", "right.png", "--max-disparity", "32", "-o", "d.pfm", "--png", "d.png"]
        let picture = folder.appendingPathComponent("d.png"), map = folder.appendingPathComponent("d.pfm")
        try Data("my own picture".utf8).write(to: picture)
        let refused = try HostileInputTests.run(arguments, in: folder)
        #expect(refused.status != 0 && refused.stderrLines.count == 1 && refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        // Neither file of the pair is written when one of them is refused.
        #expect(try Data(contentsOf: picture) == Data("my own picture".utf8))
        #expect(!FileManager.default.fileExists(atPath: map.path))
        let replaced = try OpenCaptureBinary.tool.run(arguments + ["--overwrite"], in: folder)
        #expect(replaced.status == 0, "\(replaced.errorOutput)")
        #expect(try PNGCodec.decode(Data(contentsOf: picture)).width == 120)
        #expect(try PFMCodec.decode(Data(contentsOf: map)).width == 120)
    }

    /// Runs `arguments` in a scratch folder holding the pair: a non-zero exit, one line on stderr, nothing written.
    static func expectRefusal(_ arguments: [String]) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
        } }
        let before = try files()
        let outcome = try HostileInputTests.run(arguments, in: folder)
        #expect(outcome.status != 0)
        #expect(outcome.stderrLines.count == 1, "\(outcome.stderr)")
        // Nothing written and nothing replaced.
        let after = try files()
        #expect(after.map(\.0) == before.map(\.0) && after.map(\.1) == before.map(\.1))
    }
}
