import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing

/// `opencapture fuse` keeps files already at its output names unless asked to replace them.
@Suite(.enabled(if: OpenCaptureBinary.tool.isInstalled, "the opencapture binary is not built next to the tests"))
struct FuseCommandTests {
    /// Three exposures of a small textured scene, one stop apart.
    static func bracket() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-fuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var random = RandomSource(seed: 5)
        let scene: [Double] = (0..<(160 * 120)).map { i in
            let ramp = Double(i % 160 + i / 160) / 280, texture = Double(random.next() % 100 + 50) / 100
            return 0.05 + 0.9 * ramp * texture
        }
        for (name, gain) in [("a.jpg", 0.5), ("b.jpg", 1.0), ("c.jpg", 2.0)] {
            var image = Raster<UInt8>(width: 160, height: 120, channels: 3)
            for (i, value) in scene.enumerated() {
                for c in 0..<3 { image.storage[3 * i + c] = UInt8(min(255, 255 * pow(min(1, value * gain), 1 / 2.2))) }
            }
            try JPEGEncoder.encode(image, quality: 95).write(to: folder.appendingPathComponent(name))
        }
        return folder
    }

    @Test func anExistingOutputSetIsKeptUnlessOverwriteIsGiven() throws {
        let folder = try Self.bracket()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fused = folder.appendingPathComponent("fused.jpg")
        try Data("my own photo".utf8).write(to: fused)
        let arguments = ["fuse", "a.jpg", "b.jpg", "c.jpg", "-o", "fused.jpg"]
        let refused = try HostileInputTests.run(arguments, in: folder)
        #expect(refused.status != 0 && refused.stderrLines.count == 1 && refused.stderr.contains("--overwrite"), "\(refused.stderr)")
        #expect(try Data(contentsOf: fused) == Data("my own photo".utf8))

        let replaced = try OpenCaptureBinary.tool.run(arguments + ["--overwrite"], in: folder)
        #expect(replaced.status == 0, "\(replaced.errorOutput)")
        #expect(try JPEGDecoder.size(of: Data(contentsOf: fused)) == Size(width: 160, height: 120))

        // With --hdr the three files are one set: the existing fused photo refuses it, and no HDR file appears.
        let hdr = arguments + ["--exposures", "0.5,1,2"]
        let refusedSet = try HostileInputTests.run(hdr, in: folder)
        #expect(refusedSet.status != 0 && refusedSet.stderr.contains("--overwrite"), "\(refusedSet.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("fused-hdr.hdr").path))
        let written = try OpenCaptureBinary.tool.run(hdr + ["--overwrite"], in: folder)
        #expect(written.status == 0, "\(written.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("fused-hdr.hdr").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("fused-tonemapped.jpg").path))
    }
}
