import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// One decoded frame of a bracket, with its exposure and tone response when known.
struct FusionInput {
    var image: Raster<UInt8>
    /// Relative exposure (duration × ISO).
    var exposure: Double?
    var response: ToneResponse

    /// Decodes JPEG, PNG, TIFF, or a DNG/camera raw developed with OpenCapture's own pipeline.
    static func decode(_ data: Data, name: String) throws -> FusionInput {
        let bytes = [UInt8](data.prefix(4))
        do {
            if bytes.starts(with: [0xFF, 0xD8]) {
                let image = try JPEGDecoder.decode(data)
                let exif = try? ExifReader.read(jpeg: data)
                let exposure = exif.flatMap { e in e.exposureTime.flatMap { t in e.iso.map { t * Double($0) } } }
                let ours = exif?.software?.hasPrefix("OpenCapture") ?? false
                return FusionInput(image: image, exposure: exposure, response: ours ? .openCaptureStandard : .sRGB)
            }
            if bytes == [0x89, 0x50, 0x4E, 0x47] {
                return FusionInput(image: try PNGCodec.decode(data), exposure: nil, response: .sRGB)
            }
            if let (raw, info) = try? RawFileReader.read(data) {
                let image = ImageSignalProcessor().process(raw)
                let exposure = info.exposureTime > 0 && info.iso > 0 ? info.exposureTime * info.iso : nil
                return FusionInput(image: image, exposure: exposure, response: .openCaptureStandard)
            }
            if bytes == [0x49, 0x49, 0x2A, 0x00] || bytes == [0x4D, 0x4D, 0x00, 0x2A] {
                return FusionInput(image: try TIFFCodec.decode(data), exposure: nil, response: .sRGB)
            }
        } catch {
            throw PhotoFusionError.unreadable(name, reason: "\(error)")
        }
        throw PhotoFusionError.unreadable(name, reason: "not a JPEG, PNG, TIFF or raw file")
    }
}

/// How 8-bit values relate to scene light: the sRGB curve, or OpenCapture's own tone curve.
enum ToneResponse {
    case sRGB
    case openCaptureStandard

    /// 8-bit code → linear value, 1.0 = white.
    var table: [Float] {
        switch self {
        case .sRGB: return SRGBTransfer.decodeTable8
        case .openCaptureStandard: return ToneResponse.standardInverse
        }
    }

    /// The inverse of `ToneCurve.standard`, by bisection per code (the curve is monotonic).
    static let standardInverse: [Float] = (0..<256).map { code in
        let target = Float(code) / 255
        var lo: Float = 0, hi: Float = 1
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if ToneCurve.standard.apply(mid) < target { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    func linearize(_ image: Raster<UInt8>) -> Raster<Float> {
        let lut = table
        return Raster(width: image.width, height: image.height, channels: image.channels,
                      storage: image.storage.map { lut[Int($0)] })
    }
}
