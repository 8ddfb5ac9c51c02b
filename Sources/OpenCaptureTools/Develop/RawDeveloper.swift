import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Develops camera raw files and DNGs with OpenCapture's own pipeline (OpenCapture addition).
///
/// LibRaw only reads the file: the undeveloped Bayer mosaic, black and white levels, CFA layout,
/// as-shot neutral and colour matrix. Black level, white balance, demosaic, colour, noise reduction,
/// sharpening and tone are OpenCapture's `ImageSignalProcessor`, the same path a capture takes. A linear DNG
/// (LinearRaw: camera RGB already demosaiced — Apple ProRAW, Adobe DNG Converter's linear option, PiDNG's and
/// tifffile's) goes through the same stages without the demosaic: its black and white levels, AsShotNeutral,
/// colour matrix, BaselineExposure, lens opcodes, orientation and EXIF are used as a mosaic's are. So a
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

    /// Reads any camera raw or DNG (Bayer or linear) through LibRaw, develops the *mosaic* (or a linear DNG's camera
    /// RGB) with OpenCapture's own pipeline (not LibRaw's), encodes.
    public func develop(contentsOf url: URL, as format: DevelopedFileFormat) throws -> DevelopedPhoto {
        try photo(prepare(bytes: Self.readFile(url)), as: format)
    }

    /// Develops the raw file in `data`; see `develop(contentsOf:as:)`.
    public func develop(_ data: Data, as format: DevelopedFileFormat) throws -> DevelopedPhoto {
        try photo(prepare(bytes: [UInt8](data)), as: format)
    }

    /// Develops `url` into the file `destination` (OpenCapture addition): written under a temporary name and renamed,
    /// the same bytes `develop(contentsOf:as:)` gives. A TIFF is written band by band as the pipeline finishes them
    /// (its folder made first), with no image of the whole photo in memory; other formats are encoded once the photo
    /// is ready, then their folder made and the file written. Throws `RawDevelopError` for the raw, `FileAccessError`
    /// for the destination. Without `replacing`, a file at `destination` when the developed one is placed (one that
    /// appeared while it was developed) is kept and this throws.
    public func develop(contentsOf url: URL, as format: DevelopedFileFormat, to destination: URL,
                        replacing: Bool = true) throws -> DevelopedFile {
        let raw = try prepare(bytes: Self.readFile(url))
        var byteCount = 0
        do {
            if format == .tiff || format == .tiff16 {
                try AtomicFile.makeFolder(destination.deletingLastPathComponent())
                try AtomicFile.write(to: destination, replacing: replacing) { descriptor in
                    try writeTIFF(raw, sixteenBits: format == .tiff16) { width, height, bits, strip in
                        try TIFFStripWriter(writingTo: descriptor, width: width, height: height, bitsPerSample: bits,
                                            rowsPerStrip: strip, orientation: raw.info.orientation, exif: raw.exif,
                                            iccProfile: raw.icc)
                    }
                    byteCount = Int(lseek(descriptor, 0, SEEK_END))
                }
            } else {
                let data = try encode(raw, as: format)
                try AtomicFile.makeFolder(destination.deletingLastPathComponent())
                try AtomicFile.write(data, to: destination, replacing: replacing)
                byteCount = data.count
            }
        } catch MediaFormatError.writeFailed(let why) {
            throw FileAccessError(.write, path: destination.path, reason: why)
        } catch let error as MediaFormatError {
            throw RawDevelopError.encodingFailed(error.description)
        }
        return DevelopedFile(url: destination, width: raw.image.width, height: raw.image.height, format: format,
                             byteCount: byteCount, info: raw.info)
    }

    /// A raw file read and ready to develop: the mosaic, the pipeline for it and what the developed file carries.
    private struct PreparedRaw {
        let isp: ImageSignalProcessor
        let image: RawImage
        let info: RawPhotoInfo
        let exif: ExifMetadata
        let icc: Data
    }

    private static func readFile(_ url: URL) throws -> [UInt8] {
        do {
            return try AtomicFile.readBytes(url)
        } catch {
            throw RawDevelopError.unreadableFile(path: url.path, reason: FileAccessError.reason(for: error))
        }
    }

    private func prepare(bytes: [UInt8]) throws -> PreparedRaw {
        let isp = ImageSignalProcessor(settings: try settings())
        let (raw, fileInfo) = try Self.read(bytes)
        let info = Self.info(raw: raw, file: fileInfo)
        // Every output carries the raw file's EXIF (orientation included) and the profile of the
        // colour space the pipeline rendered into.
        let exif = Self.exif(info, stored: fileInfo.exif, bytes: bytes, colorSpace: isp.settings.colorSpace)
        return PreparedRaw(isp: isp, image: raw, info: info, exif: exif, icc: ICCProfile.data(for: isp.settings.colorSpace))
    }

    /// Developed and encoded in memory.
    private func photo(_ raw: PreparedRaw, as format: DevelopedFileFormat) throws -> DevelopedPhoto {
        DevelopedPhoto(width: raw.image.width, height: raw.image.height, format: format, data: try encode(raw, as: format),
                       info: raw.info)
    }

    /// The developed file's bytes in `format`.
    private func encode(_ raw: PreparedRaw, as format: DevelopedFileFormat) throws -> Data {
        do {
            switch format {
            case .jpeg:
                return try JPEGEncoder.encode(raw.isp.process(raw.image), quality: min(100, max(1, Int((jpegQuality * 100).rounded()))),
                                              exif: raw.exif, iccProfile: raw.icc)
            case .png: return try PNGCodec.encode(raw.isp.process(raw.image), exif: raw.exif)
            case .tiff, .tiff16:
                return try writeTIFF(raw, sixteenBits: format == .tiff16) { width, height, bits, strip in
                    try TIFFStripWriter(width: width, height: height, bitsPerSample: bits, rowsPerStrip: strip,
                                        orientation: raw.info.orientation, exif: raw.exif, iccProfile: raw.icc)
                }.takeData()
            }
        } catch let error as MediaFormatError {
            throw RawDevelopError.encodingFailed(error.description)
        }
    }

    /// Develops into the TIFF `make` starts (given width, height, bits per sample and rows per strip), each of the
    /// pipeline's bands a strip written as soon as it is finished, then finishes the file (and returns its writer).
    @discardableResult
    private func writeTIFF(_ raw: PreparedRaw, sixteenBits: Bool,
                           _ make: (Int, Int, Int, Int) throws -> TIFFStripWriter) throws -> TIFFStripWriter {
        let isp = raw.isp, image = raw.image
        let writer = try make(image.width, image.height, sixteenBits ? 16 : 8, isp.outputBandHeight)
        if sixteenBits {
            isp.process16(image, bandsTo: writer.write(rows:pixels:))
        } else {
            isp.process(image, bandsTo: writer.write(rows:pixels:))
        }
        try writer.finish()
        return writer
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
            return try RawFileReader.read(bytes: bytes, acceptingLinear: true)
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
                            sensorWidth: raw.width, sensorHeight: raw.height, cfaPattern: raw.isLinear ? "linear" : raw.cfa.rawValue.uppercased(),
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
