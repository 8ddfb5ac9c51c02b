import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

/// A RAW + JPEG shot's DNG BaselineExposure (auto exposure's highlight headroom) is the exposure a reader adds to render
/// the DNG as the camera rendered it: with it the raw's room sits where an exposure without headroom puts it, and
/// OpenCapture's own develop of the DNG is as bright as the JPEG beside it.
@Suite struct DNGBaselineExposureTests {
    static func shot(_ lighting: SimulatedLighting) async throws -> (dng: Data, jpeg: Data) {
        let rig = CaptureRig(preset: .vga640x480, lighting: lighting)
        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB,
                                              processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        let photos = try await rig.capture(settings).photos
        return (try #require(photos.first { $0.isRawPhoto }?.fileDataRepresentation()),
                try #require(photos.first { !$0.isRawPhoto }?.fileDataRepresentation()))
    }

    /// Median green sample above black, as a fraction of the range to white.
    static func medianGreen(_ raw: RawImage) -> Double {
        var greens: [Double] = []
        let black = Double(raw.blackLevel[0]), range = Double(raw.whiteLevel) - black
        for y in 0..<raw.height {
            for x in 0..<raw.width where raw.cfa.color(x: x, y: y) == 1 { greens.append((Double(raw.bayer[x, y]) - black) / range) }
        }
        greens.sort()
        return greens[greens.count / 2]
    }

    /// Mean linear luminance of an 8-bit picture (the sRGB curve; P3 and sRGB share it).
    static func meanLuminance(_ jpeg: Data) throws -> Double {
        let r = try JPEGDecoder.decode(jpeg), table = SRGBTransfer.decodeTable8
        var sum = 0.0
        for i in stride(from: 0, to: r.storage.count, by: 3) {
            sum += 0.2126 * Double(table[Int(r.storage[i])]) + 0.7152 * Double(table[Int(r.storage[i + 1])])
                + 0.0722 * Double(table[Int(r.storage[i + 2])])
        }
        return sum / Double(r.storage.count / 3)
    }

    @Test func baselineExposureIsWhatTheCameraAddedAndOurDevelopMatchesTheJPEG() async throws {
        let day = try await Self.shot(.daylight), dim = try await Self.shot(.dim)
        let dayRaw = try RawFileReader.read(day.dng).raw, dimRaw = try RawFileReader.read(dim.dng).raw
        // The window holds the daylight exposure 3.8 EV back; the dim room, short of light, keeps no headroom.
        #expect(dayRaw.baselineExposure > 3.5 && dayRaw.baselineExposure <= 4 && dimRaw.baselineExposure == 0,
                "\(dayRaw.baselineExposure), \(dimRaw.baselineExposure)")
        // Brightened by it, the daylight room's median sits where the dim room's exposure (no headroom) puts its own.
        let lifted = log2(Self.medianGreen(dayRaw)) + dayRaw.baselineExposure, plain = log2(Self.medianGreen(dimRaw))
        #expect(abs(lifted - plain) < 0.25, "daylight median + BaselineExposure \(lifted) EV, dim \(plain) EV")
        // OpenCapture's develop of each DNG (which applies BaselineExposure) is as bright as the camera's JPEG.
        for shot in [day, dim] {
            let developed = try RawDeveloper().develop(shot.dng, as: .jpeg)
            let ev = log2(try Self.meanLuminance(developed.data) / Self.meanLuminance(shot.jpeg))
            #expect(abs(ev) < 0.1, "develop vs JPEG: \(ev) EV")
        }
    }
}
