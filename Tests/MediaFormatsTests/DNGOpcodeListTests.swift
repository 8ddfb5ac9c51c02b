import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

/// The lens opcodes a DNG carries: written from the frame's lens correction, read back by OpenCapture's raw reader
/// and decoded by exiftool, and LibRaw still develops the file.
@Suite struct DNGOpcodeListTests {
    static let lens = LensCorrection(size: Size(width: 256, height: 192),
                                     radial: [SIMD4(1.0004, -0.02, -0.005, 0), SIMD4(1, -0.02, -0.005, 0), SIMD4(0.9996, -0.02, -0.005, 0)],
                                     vignetting: [1.19, 0.35, 0, 0, 0])

    static func dngWithLens() throws -> Data {
        var raw = DNGFixtures.raw()
        raw.lensCorrection = lens
        return try DNGFixtures.dng(raw)
    }

    @Test func listsRoundTrip() throws {
        let warp = try #require(DNGOpcodeList.warpList(Self.lens))
        let vignetting = try #require(DNGOpcodeList.vignettingList(Self.lens))
        #expect(DNGOpcodeList.opcodeIDs(warp) == [1] && DNGOpcodeList.opcodeIDs(vignetting) == [3])
        // Count, then ID, version 1.3, optional, 4 + 3 × 48 + 16 parameter bytes (big-endian).
        #expect(Array(warp.prefix(16)) == [0, 0, 0, 1, 0, 0, 0, 1, 1, 3, 0, 0, 0, 0, 0, 1])
        #expect(warp.count == 4 + 16 + 4 + 3 * 48 + 16 && vignetting.count == 4 + 16 + 56)
        let back = try #require(try DNGOpcodeList.lensCorrection(list2: vignetting, list3: warp, size: Self.lens.size))
        #expect(back == Self.lens)
    }

    @Test func theFrameWithoutFlawsWritesNoOpcodes() throws {
        #expect(DNGOpcodeList.warpList(LensCorrection(size: Size(width: 4, height: 4), radial: [])) == nil)
        #expect(try RawFileReader.read(try DNGFixtures.dng()).raw.lensCorrection == nil)
    }

    @Test func theRawReaderGivesTheLensBack() throws {
        let read = try RawFileReader.read(try Self.dngWithLens()).raw
        #expect(read.lensCorrection == Self.lens)
    }

    @Test func malformedListsAreRefusedNotTrapped() throws {
        let warp = try #require(DNGOpcodeList.warpList(Self.lens))
        for cut in [0, 3, 10, 30, warp.count - 1] {
            #expect(throws: MediaFormatError.self) { _ = try DNGOpcodeList.lensCorrection(list2: nil, list3: Array(warp.prefix(cut)), size: Self.lens.size) }
        }
        var huge = warp
        huge[0] = 0xFF  // 4 billion opcodes claimed
        #expect(throws: MediaFormatError.self) { _ = try DNGOpcodeList.lensCorrection(list2: nil, list3: huge, size: Self.lens.size) }
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolDecodesTheOpcodes() throws {
        let result = try ExternalTool.exiftool.run(["-G1", "-s", "-OpcodeList2", "-OpcodeList3", "-validate", "-warning"],
                                                   file: try Self.dngWithLens(), fileExtension: "dng")
        #expect(result.output.contains("FixVignetteRadial"), "\(result.output)")
        #expect(result.output.contains("WarpRectilinear"), "\(result.output)")
        #expect(!result.output.contains("Warning"), "\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.dcrawEmu.isInstalled, "dcraw_emu (libraw-bin) not installed"))
    func libRawStillDevelopsIt() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("lens.dng")
        try Self.dngWithLens().write(to: file)
        let result = try ExternalTool.dcrawEmu.run(["-T", file.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("lens.dng.tiff").path))
    }
}
