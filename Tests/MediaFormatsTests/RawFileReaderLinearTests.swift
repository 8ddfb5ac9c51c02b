import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

/// A linear DNG (LinearRaw, three samples a pixel) read through LibRaw: its camera RGB as stored, with its per-channel
/// black levels, white level, AsShotNeutral, colour matrix, BaselineExposure and orientation; refused unless asked for.
@Suite struct RawFileReaderLinearTests {
    static let width = 40, height = 30
    static let samples = (0..<(width * height * 3)).map { UInt16(600 + ($0 &* 2_654_435_761 >> 9) % 15_000) }

    static func file() -> HandMadeDNG {
        var file = HandMadeDNG(width: width, height: height, samples: samples, linear: true)
        file.blackLevel = [512, 520, 530]
        file.whiteLevel = 16_383
        file.asShotNeutral = [0.5, 1, 0.8]
        file.baselineExposure = 0.7
        file.orientation = 6
        return file
    }

    @Test func linearDNGIsReadAsCameraRGBWithItsTags() throws {
        let (raw, info) = try RawFileReader.read(bytes: Self.file().bytes, acceptingLinear: true)
        #expect(raw.isLinear && raw.bayer.channels == 3 && raw.width == Self.width && raw.height == Self.height)
        #expect(raw.bayer.storage == Self.samples)
        #expect(raw.blackLevel == [512, 520, 530] && raw.whiteLevel == 16_383 && raw.bitDepth == 14)
        #expect(abs(raw.asShotNeutral.x - 0.5) < 1e-3 && raw.asShotNeutral.y == 1 && abs(raw.asShotNeutral.z - 0.8) < 1e-3)
        #expect(abs(raw.baselineExposure - 0.7) < 1e-4)
        // ColorMatrix1 is XYZ → linear sRGB: camera RGB is linear sRGB.
        for (value, identity) in zip(raw.cameraToSRGB.m, Matrix3.identity.m) { #expect(abs(value - identity) < 1e-3) }
        #expect(info.orientation == 6 && info.dngVersion != nil && info.width == Self.width)
    }

    @Test func linearDNGIsRefusedWhereOnlyMosaicsAreTaken() throws {
        // Frame merging, DNG writing and replay take mosaics: they read without `acceptingLinear`.
        #expect(throws: MediaFormatError.unsupported("not a single-channel mosaic (a linear DNG, read only to develop)")) {
            try RawFileReader.read(bytes: Self.file().bytes)
        }
    }

    @Test func oneBlackLevelServesEveryChannel() throws {
        var file = Self.file()
        file.blackLevel = [256]
        let raw = try RawFileReader.read(bytes: file.bytes, acceptingLinear: true).raw
        #expect(raw.blackLevel == [256, 256, 256])
    }
}
