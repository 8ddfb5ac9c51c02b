import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// One file of a bracket: first probed from its header (kind, size, metadata, colour space), so a
/// bracket is checked before anything is decoded; then decoded to 8-bit RGB.
struct FusionInput {
    enum Kind {
        case jpeg, png, tiff, heif
        /// A DNG or camera raw, developed with OpenCapture's own pipeline.
        case raw
    }

    var name: String
    var data: Data
    var kind: Kind
    /// Stored size as the header states it (as displayed for HEIF, whose rotation libheif applies).
    var size: Size
    /// The file's EXIF, when it has some.
    var exif: ExifMetadata?
    /// EXIF/TIFF orientation of the stored pixels (1 for HEIF, decoded as displayed).
    var orientation: Int
    /// The colour space the file declares (ICC description, nclx primaries or EXIF ColorSpace).
    var colorSpace: ColorSpace
    /// Relative exposure (duration × ISO).
    var exposure: Double?
    /// How 8-bit values relate to scene light.
    var response: ToneCurve
    /// The mosaic LibRaw read while probing a raw file, kept so it is read once.
    var raw: RawImage? = nil

    /// Largest frame fused: 100 megapixels (a 12 MP bracket of three needs about 1 GB already).
    static let maxPixels = 100_000_000

    /// Reads only headers and metadata; throws `PhotoFusionError.unreadable` for anything not a
    /// complete image of a known kind, and for sizes that could not be held in memory.
    static func probe(_ data: Data, name: String) throws -> FusionInput {
        func fail(_ reason: String) -> PhotoFusionError { .unreadable(name, reason: reason) }
        guard !data.isEmpty else { throw fail("the file is empty") }
        let head = [UInt8](data.prefix(12))
        var input: FusionInput
        do {
            if head.starts(with: [0xFF, 0xD8]) {
                input = try probeJPEG(data, name: name)
            } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                input = try probePNG(data, name: name)
            } else if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
                input = try probeTIFF(data, name: name)
            } else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8), String(decoding: head[8..<12], as: UTF8.self) != "crx " {
                input = try probeHEIF(data, name: name)
            } else {
                input = try probeRaw(data, name: name)
            }
        } catch let error as PhotoFusionError {
            throw error
        } catch let error as MediaFormatError {
            throw fail(error == .truncated ? "the file is truncated" : error.description)
        }
        guard input.size.width > 0, input.size.height > 0 else { throw fail("the header gives no image size") }
        let (pixels, overflow) = input.size.width.multipliedReportingOverflow(by: input.size.height)
        guard !overflow, pixels <= maxPixels else {
            throw fail("\(input.size.width)×\(input.size.height) is too large to fuse (limit \(maxPixels / 1_000_000) megapixels)")
        }
        return input
    }

    /// Decodes to 8-bit RGB and checks the result has the probed size.
    func decode() throws -> Raster<UInt8> {
        let image: Raster<UInt8>
        do {
            switch kind {
            case .jpeg: image = try JPEGDecoder.decode(data)
            case .png: image = try PNGCodec.decode(data)
            case .tiff: image = try TIFFCodec.decode(data)
            case .heif: image = try HEIFDecoder.decode(data)
            case .raw: image = ImageSignalProcessor().process(try raw ?? RawFileReader.read(data).raw)
            }
        } catch let error as MediaFormatError {
            throw PhotoFusionError.unreadable(name, reason: error == .truncated ? "the file is truncated" : error.description)
        }
        guard image.size == size else {
            throw PhotoFusionError.unreadable(name, reason: "decoded to \(image.width)×\(image.height), the header said \(size.width)×\(size.height)")
        }
        return image
    }

    // MARK: - Probes

    private static func probeJPEG(_ data: Data, name: String) throws -> FusionInput {
        let size = try JPEGDecoder.size(of: data)
        // Even a flat JPEG spends a few bits per 8×8 block: far fewer bytes than that is a lying header.
        guard data.count >= size.width / 64 * size.height / 64 else { throw MediaFormatError.truncated }
        let exif = try? ExifReader.read(jpeg: data)
        let icc = FileInspector.iccProfileInJPEG([UInt8](data.prefix(1 << 20)))
        let ours = exif?.software?.hasPrefix("OpenCapture") ?? false
        return FusionInput(name: name, data: data, kind: .jpeg, size: size, exif: exif, orientation: exif?.orientation ?? 1,
                           colorSpace: colorSpace(icc: icc.flatMap(ICCProfile.description(of:)), exif: exif),
                           exposure: exposure(exif), response: ours ? .standard : .linear)
    }

    private static func probePNG(_ data: Data, name: String) throws -> FusionInput {
        let b = [UInt8](data.prefix(33))
        guard b.count >= 33 else { throw MediaFormatError.truncated }
        guard Array(b[12..<16]) == Array("IHDR".utf8) else { throw MediaFormatError.invalidImage("PNG without an IHDR chunk") }
        let width = Int(be32(b, 16)), height = Int(be32(b, 20))
        // Deflate compresses at most about 1032:1, so the file must hold at least this many bytes.
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: 3)
        let (raw, o2) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        guard !o1, !o2, data.count >= raw / 1032 else { throw MediaFormatError.truncated }
        return FusionInput(name: name, data: data, kind: .png, size: Size(width: width, height: height), exif: nil,
                           orientation: 1, colorSpace: .sRGB, exposure: nil, response: .linear)
    }

    private static func probeTIFF(_ data: Data, name: String) throws -> FusionInput {
        let reader = try TIFFTagReader(data)
        guard let ifd0 = try reader.mainDirectories().first else { throw MediaFormatError.invalidImage("TIFF without an image directory") }
        // DNGs and TIFF-based camera raws are developed from their mosaic; never from an 8-bit preview.
        if ifd0.contains(50706) || ifd0.integers(330) != nil || ifd0.string(271) != nil && ![1, 2].contains(ifd0.integer(262) ?? 0) {
            return try probeRaw(data, name: name)
        }
        let size = Size(width: ifd0.integer(256) ?? 0, height: ifd0.integer(257) ?? 0)
        let exif = try? ExifReader.read(jpeg: data)
        let icc = ifd0.bytes(34675).flatMap { ICCProfile.description(of: Data($0)) }
        return FusionInput(name: name, data: data, kind: .tiff, size: size, exif: exif, orientation: ifd0.integer(274) ?? 1,
                           colorSpace: colorSpace(icc: icc, exif: exif), exposure: exposure(exif), response: .linear)
    }

    private static func probeHEIF(_ data: Data, name: String) throws -> FusionInput {
        let info = try HEIFDecoder.info(data)
        let space: ColorSpace = info.colorProfileDescription.map { $0.contains("P3") ? .displayP3 : .sRGB }
            ?? (info.colorPrimaries == 12 ? .displayP3 : .sRGB)
        return FusionInput(name: name, data: data, kind: .heif, size: Size(width: info.width, height: info.height), exif: nil,
                           orientation: 1, colorSpace: space, exposure: nil, response: .standard)
    }

    /// Camera raws are read by LibRaw here (its header reading needs the file); a cut file fails.
    private static func probeRaw(_ data: Data, name: String) throws -> FusionInput {
        let (raw, info): (RawImage, RawFileInfo)
        do {
            (raw, info) = try RawFileReader.read(data)
        } catch MediaFormatError.truncated {
            throw PhotoFusionError.unreadable(name, reason: "the raw file is truncated")
        } catch let error as MediaFormatError {
            throw PhotoFusionError.unreadable(name, reason: "not a JPEG, PNG, TIFF, HEIF, DNG or camera raw file (\(error))")
        }
        let exposure = info.exposureTime > 0 && info.iso > 0 ? info.exposureTime * info.iso : nil
        var exif = (try? ExifReader.read(jpeg: data)) ?? ExifMetadata()
        exif.make = exif.make ?? (info.make.isEmpty ? nil : info.make)
        exif.model = exif.model ?? (info.model.isEmpty ? nil : info.model)
        exif.orientation = info.orientation
        return FusionInput(name: name, data: data, kind: .raw, size: Size(width: raw.width, height: raw.height), exif: exif,
                           orientation: info.orientation, colorSpace: ISPSettings().colorSpace, exposure: exposure,
                           response: ISPSettings().toneCurve, raw: raw)
    }

    // MARK: - Metadata

    /// An ICC description naming Display P3 wins; without a profile, EXIF ColorSpace 0xFFFF
    /// (uncalibrated, which iPhones and OpenCapture write for Display P3) means P3.
    private static func colorSpace(icc description: String?, exif: ExifMetadata?) -> ColorSpace {
        if let description { return description.contains("P3") ? .displayP3 : .sRGB }
        return exif?.colorSpace == 0xFFFF ? .displayP3 : .sRGB
    }

    private static func exposure(_ exif: ExifMetadata?) -> Double? {
        guard let t = exif?.exposureTime, let iso = exif?.iso, t > 0, t.isFinite, iso > 0 else { return nil }
        return t * Double(iso)
    }

    private static func be32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }
}
