import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Develops camera raw files and DNGs with OpenCapture's own pipeline (OpenCapture addition).
///
/// LibRaw only reads the file: the undeveloped Bayer mosaic, black and white levels, CFA layout,
/// as-shot neutral and colour matrix. Black level, white balance, demosaic, colour, noise reduction,
/// sharpening and tone are OpenCapture's `ImageSignalProcessor`, the same path a capture takes, so a
/// DNG written by OpenCapture develops to the photo the camera would have produced (with
/// `sharpening = 0.5`, the camera's look; the default 0 renders faithfully, as LibRaw does).
/// Orientation is recorded in the output's metadata, never applied to the pixels.
public struct RawDeveloper: Sendable {
    public var demosaic: RawDemosaicMethod = .residualInterpolation
    /// 0 = off, 1 = default (scaled by the file's noise profile, i.e. its ISO).
    public var noiseReduction: Double = 1
    /// Luma detail boost; 0 = off, the default: a faithful rendering, as LibRaw's and dcraw's are
    /// (0.5 is the look of OpenCapture's own camera photos).
    public var sharpening: Double = 0
    /// Added exposure in EV (a digital gain of 2^EV before tone mapping).
    public var exposureCompensation: Double = 0
    /// JPEG quality 0…1 (libjpeg quality = round(100 × this), at least 1).
    public var jpegQuality: Double = 0.92

    public init() {}

    /// Reads any camera raw or DNG through LibRaw, develops the *mosaic* with OpenCapture's own pipeline
    /// (not LibRaw's), encodes.
    public func develop(contentsOf url: URL, as format: DevelopedFileFormat) throws -> DevelopedPhoto {
        try develop(bytes: try Self.readFile(url), as: format).photo()
    }

    /// Develops the raw file in `data`; see `develop(contentsOf:as:)`.
    public func develop(_ data: Data, as format: DevelopedFileFormat) throws -> DevelopedPhoto {
        try develop(bytes: [UInt8](data), as: format).photo()
    }

    /// Develops `url` into the file `destination` (OpenCapture addition): written under a temporary name and renamed,
    /// its folder made once the photo is ready; a TIFF goes from the pixels to the file with no buffer of the whole
    /// file. Throws `RawDevelopError` for the raw, `FileAccessError` for the destination. Without `replacing`, a file at
    /// `destination` when the developed one is placed (one that appeared while it was developed) is kept and this throws.
    public func develop(contentsOf url: URL, as format: DevelopedFileFormat, to destination: URL,
                        replacing: Bool = true) throws -> DevelopedFile {
        let developed = try develop(bytes: try Self.readFile(url), as: format)
        try AtomicFile.makeFolder(destination.deletingLastPathComponent())
        var byteCount = 0
        do {
            switch developed.pixels {
            case .eight(let image) where format == .tiff:
                try AtomicFile.write(to: destination, replacing: replacing) { descriptor in
                    try TIFFCodec.write(image, to: descriptor, orientation: developed.info.orientation, exif: developed.exif,
                                        iccProfile: developed.icc)
                    byteCount = Int(lseek(descriptor, 0, SEEK_END))
                }
            case .sixteen(let image):
                try AtomicFile.write(to: destination, replacing: replacing) { descriptor in
                    try TIFF16Writer.write(image, to: descriptor, orientation: developed.info.orientation, exif: developed.exif,
                                           iccProfile: developed.icc)
                    byteCount = Int(lseek(descriptor, 0, SEEK_END))
                }
            default:
                let data = try developed.encode()
                try AtomicFile.write(data, to: destination, replacing: replacing)
                byteCount = data.count
            }
        } catch MediaFormatError.writeFailed(let why) {
            throw FileAccessError(.write, path: destination.path, reason: why)
        } catch let error as MediaFormatError {
            throw RawDevelopError.encodingFailed(error.description)
        }
        return DevelopedFile(url: destination, width: developed.width, height: developed.height, format: format,
                             byteCount: byteCount, info: developed.info)
    }

    /// A developed photo before it is encoded: its pixels and what its file carries.
    private struct Developed {
        enum Pixels { case eight(Raster<UInt8>), sixteen(Raster<UInt16>) }
        let pixels: Pixels
        let format: DevelopedFileFormat
        let info: RawPhotoInfo
        let exif: ExifMetadata
        let icc: Data
        let jpegQuality: Int
        var width: Int { switch pixels { case .eight(let r): r.width; case .sixteen(let r): r.width } }
        var height: Int { switch pixels { case .eight(let r): r.height; case .sixteen(let r): r.height } }

        /// Encoded in memory.
        func photo() throws -> DevelopedPhoto {
            DevelopedPhoto(width: width, height: height, format: format, data: try encode(), info: info)
        }

        /// The file's bytes in `format`.
        func encode() throws -> Data {
            do {
                switch (pixels, format) {
                case (.eight(let image), .jpeg): return try JPEGEncoder.encode(image, quality: jpegQuality, exif: exif, iccProfile: icc)
                case (.eight(let image), .png): return try PNGCodec.encode(image, exif: exif)
                case (.eight(let image), _): return try TIFFCodec.encode(image, orientation: info.orientation, exif: exif, iccProfile: icc)
                case (.sixteen(let image), _):
                    return try TIFF16Writer.encode(image, orientation: info.orientation, exif: exif, iccProfile: icc)
                }
            } catch let error as MediaFormatError {
                throw RawDevelopError.encodingFailed(error.description)
            }
        }
    }

    private static func readFile(_ url: URL) throws -> [UInt8] {
        do {
            return try AtomicFile.readBytes(url)
        } catch {
            throw RawDevelopError.unreadableFile(path: url.path, reason: FileAccessError.reason(for: error))
        }
    }

    private func develop(bytes: [UInt8], as format: DevelopedFileFormat) throws -> Developed {
        let isp = ImageSignalProcessor(settings: try settings())
        let (raw, fileInfo) = try Self.read(bytes)
        let info = Self.info(raw: raw, file: fileInfo)
        // Every output carries the raw file's EXIF (orientation included) and the profile of the
        // colour space the pipeline rendered into.
        let exif = Self.exif(info, stored: fileInfo.exif, bytes: bytes, colorSpace: isp.settings.colorSpace)
        let icc = ICCProfile.data(for: isp.settings.colorSpace)
        let pixels: Developed.Pixels = format == .tiff16 ? .sixteen(isp.process16(raw)) : .eight(isp.process(raw))
        return Developed(pixels: pixels, format: format, info: info, exif: exif, icc: icc,
                         jpegQuality: min(100, max(1, Int((jpegQuality * 100).rounded()))))
    }

    /// The pipeline settings, validated.
    func settings() throws -> ISPSettings {
        guard noiseReduction.isFinite, noiseReduction >= 0 else {
            throw RawDevelopError.invalidSetting("noise reduction \(noiseReduction) must be ≥ 0")
        }
        guard sharpening.isFinite, sharpening >= 0 else { throw RawDevelopError.invalidSetting("sharpening \(sharpening) must be ≥ 0") }
        guard exposureCompensation.isFinite, abs(exposureCompensation) <= 10 else {
            throw RawDevelopError.invalidSetting("exposure compensation \(exposureCompensation) EV is outside −10…10")
        }
        guard jpegQuality.isFinite, (0...1).contains(jpegQuality) else {
            throw RawDevelopError.invalidSetting("JPEG quality \(jpegQuality) is outside 0…1")
        }
        var settings = ISPSettings()
        settings.demosaic = DemosaicMethod(rawValue: demosaic.rawValue) ?? .residualInterpolation
        settings.noiseReduction = noiseReduction
        settings.sharpening = sharpening
        settings.exposureGain = pow(2, exposureCompensation)
        return settings
    }

    /// LibRaw's reading of the file, with its errors mapped to `RawDevelopError`.
    static func read(_ data: Data) throws -> (RawImage, RawFileInfo) {
        try read([UInt8](data))
    }

    static func read(_ bytes: [UInt8]) throws -> (RawImage, RawFileInfo) {
        do {
            return try RawFileReader.read(bytes: bytes)
        } catch let error as MediaFormatError {
            switch error {
            case .truncated: throw RawDevelopError.truncated
            case .unsupported(let why): throw RawDevelopError.unsupported(why)
            case .invalidImage(let why), .decoderFailed(let why), .invalidMetadata(let why), .encoderFailed(let why),
                 .writeFailed(let why):
                throw RawDevelopError.notRecognized(why)
            }
        }
    }

    static func info(raw: RawImage, file: RawFileInfo) -> RawPhotoInfo {
        let version = file.dngVersion.map { v in (0..<4).map { String((v >> (24 - 8 * $0)) & 0xFF) }.joined(separator: ".") }
        let n = raw.asShotNeutral
        return RawPhotoInfo(make: file.make, model: file.model, iso: file.iso, exposureTime: file.exposureTime,
                            fNumber: file.fNumber, focalLength: file.focalLength, captureDate: file.timestamp,
                            orientation: file.orientation, dngVersion: version,
                            sensorWidth: raw.width, sensorHeight: raw.height, cfaPattern: raw.cfa.rawValue.uppercased(),
                            bitDepth: raw.bitDepth, blackLevel: raw.blackLevel.map(Double.init), whiteLevel: raw.whiteLevel,
                            asShotNeutral: [n.x, n.y, n.z])
    }

    /// EXIF for the developed JPEG: the file's own EXIF when it has one (lens, date, bias…: `stored`, as the raw
    /// reader found it, or from `bytes` for raws not built on TIFF), with LibRaw's exposure figures filling gaps,
    /// Software = OpenCapture.
    static func exif(_ info: RawPhotoInfo, stored: ExifMetadata?, bytes: [UInt8], colorSpace: ColorSpace) -> ExifMetadata {
        var exif = stored ?? (TIFFTagReader.isTIFFStructuredRaw(bytes) ? nil : try? ExifReader.read(jpeg: Data(bytes)))
            ?? ExifMetadata()
        // The camera's own Make and Model as it wrote them; LibRaw's normalised names (its make split off the
        // model: "Simulated Camera" for "OpenCapture Simulated Camera") only where the file has none.
        if (exif.make ?? "").isEmpty, !info.make.isEmpty { exif.make = info.make }
        if (exif.model ?? "").isEmpty, !info.model.isEmpty { exif.model = info.model }
        if exif.exposureTime == nil, info.exposureTime > 0 { exif.exposureTime = info.exposureTime }
        if exif.fNumber == nil, info.fNumber > 0 { exif.fNumber = info.fNumber }
        if exif.iso == nil, info.iso > 0 { exif.iso = Int(info.iso.rounded()) }
        if exif.focalLength == nil, info.focalLength > 0 { exif.focalLength = info.focalLength }
        if exif.dateTimeOriginal == nil { exif.dateTimeOriginal = info.captureDate }
        return exif.derived(by: "raw developer", orientation: info.orientation, colorSpace: colorSpace)
    }
}
