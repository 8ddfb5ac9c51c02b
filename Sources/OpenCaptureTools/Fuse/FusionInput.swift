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
    /// The ICC profile the file carries, when it has one.
    var iccProfile: Data? = nil
    /// The mosaic LibRaw read while probing a raw file, kept so it is read once.
    var raw: RawImage? = nil

    /// Largest frame fused: 100 megapixels (a 12 MP bracket of three needs about 1 GB already).
    static let maxPixels = 100_000_000

    /// Reads only headers and metadata; throws `PhotoFusionError.unreadable` for anything not a
    /// complete image of a known kind, and for sizes that could not be held in memory.
    static func probe(_ data: Data, name: String) throws -> FusionInput {
        func fail(_ reason: String) -> PhotoFusionError { .unreadable(name, reason: reason) }
        guard !data.isEmpty else { throw fail("the file is empty") }
        var input: FusionInput
        do {
            switch FileKind.of(data) {
            case .jpeg: input = try probeJPEG(data, name: name)
            case .png: input = try probePNG(data, name: name)
            case .tiff: input = try probeTIFF(data, name: name)
            case .heif: input = try probeHEIF(data, name: name)
            // DNGs and camera raws are developed from their mosaic, never from an 8-bit preview;
            // files of no kind FileKind names may still be a raw LibRaw reads.
            case .dng, .cameraRaw, nil: input = try probeRaw(data, name: name)
            case .radianceHDR: throw fail("a Radiance HDR image cannot be fused; give the bracket's frames")
            case .movie: throw fail("a movie cannot be fused; give the bracket's photos")
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

    /// Decodes to 8-bit RGB and checks the result has the probed size; a PNG or HEIC with transparent pixels is refused
    /// alike (a bracket's frames are opaque photographs: what is transparent has no exposure to fuse; an alpha channel
    /// opaque everywhere is read).
    func decode() throws -> Raster<UInt8> {
        let image: Raster<UInt8>
        do {
            switch kind {
            case .jpeg: image = try JPEGDecoder.decode(data)
            case .png: image = try PNGCodec.decode(data, transparency: .refused)
            case .tiff: image = try TIFFCodec.decode(data)
            case .heif: image = try HEIFDecoder.decode(data, transparency: .refused)
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
        let icc = try? JPEGSegments.iccProfile(in: data)
        let ours = exif?.software?.hasPrefix("OpenCapture") ?? false
        return FusionInput(name: name, data: data, kind: .jpeg, size: size, exif: exif, orientation: exif?.orientation ?? 1,
                           colorSpace: ColorSpace.declared(iccProfile: icc),
                           exposure: exposure(exif), response: ours ? .standard : .linear, iccProfile: icc)
    }

    private static func probePNG(_ data: Data, name: String) throws -> FusionInput {
        let header = try PNGHeader(data)
        // Deflate compresses at most about 1032:1, so the file must hold at least this many bytes.
        let (rowBytes, o1) = header.width.multipliedReportingOverflow(by: 3)
        let (raw, o2) = (rowBytes + 1).multipliedReportingOverflow(by: header.height)
        guard !o1, !o2, data.count >= raw / 1032 else { throw MediaFormatError.truncated }
        // The colour space the file declares: an ICC profile (iCCP), else cICP primaries, else sRGB.
        let icc = try? PNGHeader.iccProfile(in: data)
        let space = ColorSpace.declared(iccProfile: icc, codingPrimaries: try? PNGHeader.codingPrimaries(in: data))
        // Its eXIf chunk (what OpenCapture's develop writes, exiftool too): orientation, exposure and camera, as a JPEG's.
        let exif = ExifReader.read(photo: data)
        return FusionInput(name: name, data: data, kind: .png, size: Size(width: header.width, height: header.height), exif: exif,
                           orientation: exif?.orientation ?? 1, colorSpace: space, exposure: exposure(exif), response: .linear,
                           iccProfile: icc)
    }

    private static func probeTIFF(_ data: Data, name: String) throws -> FusionInput {
        let reader = try TIFFTagReader(data)
        guard let ifd0 = try reader.mainDirectories().first else { throw MediaFormatError.invalidImage("TIFF without an image directory") }
        let size = Size(width: ifd0.integer(256) ?? 0, height: ifd0.integer(257) ?? 0)
        let exif = try? ExifReader.read(jpeg: data)
        let icc = ifd0.bytes(34675).map { Data($0) }
        return FusionInput(name: name, data: data, kind: .tiff, size: size, exif: exif, orientation: ifd0.integer(274) ?? 1,
                           colorSpace: ColorSpace.declared(iccProfile: icc), exposure: exposure(exif), response: .linear,
                           iccProfile: icc)
    }

    /// From the file's boxes: the primary image's size as displayed (libheif applies `irot`, so the
    /// pixels need no orientation), its EXIF (exposure = time × ISO, as for JPEG) and its colour space.
    private static func probeHEIF(_ data: Data, name: String) throws -> FusionInput {
        let heif = try HEIFStructure.parse(data)
        let exif = heif.exif.flatMap { try? ExifReader.read(jpeg: $0) }
        let space = ColorSpace.declared(iccProfile: heif.iccProfile, codingPrimaries: heif.colorPrimaries)
        return FusionInput(name: name, data: data, kind: .heif, size: Size(width: heif.width, height: heif.height), exif: exif,
                           orientation: 1, colorSpace: space, exposure: exposure(exif), response: .standard,
                           iccProfile: heif.iccProfile)
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

    private static func exposure(_ exif: ExifMetadata?) -> Double? {
        guard let t = exif?.exposureTime, let iso = exif?.iso, t > 0, t.isFinite, iso > 0 else { return nil }
        return t * Double(iso)
    }
}
