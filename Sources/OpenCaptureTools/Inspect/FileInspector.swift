import CaptureCore
import Foundation
import MediaFormats

/// Reports what an image file holds (OpenCapture addition): kind (JPEG, PNG, TIFF, DNG, camera raw,
/// HEIF), dimensions, EXIF (Make, Model, DateTimeOriginal, ExposureTime, FNumber, ISO, FocalLength,
/// Flash, Orientation…), embedded thumbnail size, ICC profile description, and DNG tags (DNGVersion,
/// UniqueCameraModel, CFA pattern, black and white level, AsShotNeutral, preview size).
/// Only headers and metadata are parsed, except for non-DNG camera raws, which LibRaw opens.
public enum FileInspector {
    public static func inspect(contentsOf url: URL) throws -> FileReport {
        let data: Data
        do {
            data = try AtomicFile.read(url)
        } catch {
            throw FileInspectionError.unreadableFile(path: url.path, reason: FileAccessError.reason(for: error))
        }
        return try inspect(data)
    }

    public static func inspect(_ data: Data) throws -> FileReport {
        guard !data.isEmpty else { throw FileInspectionError.notRecognized("empty file") }
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0xFF, 0xD8]) { return try jpeg(data) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return try png(data) }
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if brand == "crx " { return try cameraRaw(data, brand: "Canon CR3") }
            return try heif(data, brand: brand)
        }
        if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return try tiff(data) }
        if head.count < 4 { throw FileInspectionError.truncated }
        return try cameraRaw(data, brand: nil)
    }

    // MARK: - JPEG

    private static func jpeg(_ data: Data) throws -> FileReport {
        var report = FileReport(kind: .jpeg)
        do {
            let size = try JPEGDecoder.size(of: data)
            report.width = size.width
            report.height = size.height
        } catch let error as MediaFormatError {
            throw error == .truncated ? FileInspectionError.truncated : FileInspectionError.malformed(error.description)
        }
        report.add("File", "Kind", "JPEG")
        report.add("File", "Size", "\(report.width!)×\(report.height!)")
        if let exif = try? ExifReader.read(jpeg: data) { addExif(exif, to: &report) }
        if let thumbnail = try? ExifReader.thumbnail(jpeg: data), let size = try? JPEGDecoder.size(of: thumbnail) {
            report.setThumbnail(size.width, size.height, bytes: thumbnail.count)
        }
        if let profile = iccProfileInJPEG([UInt8](data)) { report.setICC(profile) }
        return report
    }

    /// The APP2 ICC_PROFILE chunks, in sequence order, joined.
    static func iccProfileInJPEG(_ b: [UInt8]) -> Data? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [(Int, ArraySlice<UInt8>)] = []
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            if (0xD0...0xD8).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { break }
            let payload = b[(i + 4)..<(i + 2 + length)]
            if marker == 0xE2, payload.count > 14, payload.starts(with: signature) {
                chunks.append((Int(payload[payload.startIndex + 12]), payload.dropFirst(14)))
            }
            i += 2 + length
        }
        guard !chunks.isEmpty else { return nil }
        return Data(chunks.sorted { $0.0 < $1.0 }.flatMap { $0.1 })
    }

    // MARK: - PNG

    private static func png(_ data: Data) throws -> FileReport {
        let b = [UInt8](data)
        guard b.count >= 33 else { throw FileInspectionError.truncated }
        guard b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), Array(b[12..<16]) == Array("IHDR".utf8) else {
            throw FileInspectionError.malformed("PNG without an IHDR chunk")
        }
        var report = FileReport(kind: .png, width: Int(be32(b, 16)), height: Int(be32(b, 20)))
        report.add("File", "Kind", "PNG")
        report.add("File", "Size", "\(report.width!)×\(report.height!)")
        let colorTypes = [0: "grey", 2: "RGB", 3: "palette", 4: "grey + alpha", 6: "RGBA"]
        report.add("PNG", "Bit depth", "\(b[24])")
        report.add("PNG", "Colour type", colorTypes[Int(b[25])] ?? "\(b[25])")
        var i = 8
        while i + 12 <= b.count {
            let length = Int(be32(b, i)), type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            guard length <= b.count - i - 12 else { break }
            let body = Data(b[(i + 8)..<(i + 8 + length)])
            switch type {
            case "iCCP": report.add("ICC", "Profile name", String(decoding: body.prefix { $0 != 0 }, as: UTF8.self))
            case "sRGB": report.add("ICC", "sRGB chunk", "rendering intent \(body.first ?? 0)")
            case "eXIf": if let exif = try? ExifReader.read(jpeg: body) { addExif(exif, to: &report) }
            case "IEND": i = b.count
            default: break
            }
            i += 12 + length
        }
        return report
    }

    // MARK: - TIFF, DNG and TIFF-based raws

    private static func tiff(_ data: Data) throws -> FileReport {
        let reader: TIFFTagReader
        let main: [TIFFTagReader.Directory]
        do {
            reader = try TIFFTagReader(data)
            main = try reader.mainDirectories()
        } catch let error as MediaFormatError {
            throw error == .truncated ? FileInspectionError.truncated : FileInspectionError.malformed(error.description)
        }
        guard let ifd0 = main.first else { throw FileInspectionError.malformed("TIFF without an image directory") }
        let all = main + main.flatMap { reader.subDirectories(of: $0) }
        if ifd0.contains(Tag.dngVersion) { return dng(data, ifd0: ifd0, all: all) }
        if !isPlainImage(ifd0), let report = try? cameraRaw(data, brand: nil) { return report }

        var report = FileReport(kind: .tiff, width: ifd0.integer(Tag.width), height: ifd0.integer(Tag.height))
        report.add("File", "Kind", "TIFF")
        if let w = report.width, let h = report.height { report.add("File", "Size", "\(w)×\(h)") }
        if let bits = ifd0.integers(Tag.bitsPerSample) { report.add("File", "Bits per sample", bits.map(String.init).joined(separator: ",")) }
        if let c = ifd0.integer(Tag.compression) { report.add("File", "Compression", compressionName(c)) }
        if main.count > 1 { report.add("File", "Directories", "\(main.count)") }
        addTIFFMetadata(data, ifd0: ifd0, to: &report)
        return report
    }

    /// A TIFF whose first image is an ordinary picture (not a CFA mosaic), i.e. no LibRaw attempt needed.
    private static func isPlainImage(_ ifd0: TIFFTagReader.Directory) -> Bool {
        guard let photometric = ifd0.integer(Tag.photometric), [0, 1, 2, 3, 5, 6, 8].contains(photometric) else { return false }
        return ifd0.integers(Tag.subIFDs) == nil && ifd0.string(Tag.make) == nil
    }

    private static func dng(_ data: Data, ifd0: TIFFTagReader.Directory, all: [TIFFTagReader.Directory]) -> FileReport {
        var report = FileReport(kind: .dng)
        let rawIFD = all.first { ($0.integer(Tag.newSubfileType) ?? 0) == 0 && [32803, 34892].contains($0.integer(Tag.photometric) ?? 0) }
        let preview = all.filter { $0.integer(Tag.newSubfileType) == 1 }
            .max { ($0.integer(Tag.width) ?? 0) < ($1.integer(Tag.width) ?? 0) }
        report.add("File", "Kind", "DNG")
        if let raw = rawIFD {
            let crop = raw.reals(Tag.defaultCropSize)
            report.width = crop.map { Int($0[0].rounded()) } ?? raw.integer(Tag.width)
            report.height = crop.flatMap { $0.count > 1 ? Int($0[1].rounded()) : nil } ?? raw.integer(Tag.height)
            if let w = report.width, let h = report.height { report.add("File", "Size", "\(w)×\(h)") }
        }
        addTIFFMetadata(data, ifd0: ifd0, to: &report)

        if let v = ifd0.bytes(Tag.dngVersion) { report.add("DNG", "DNGVersion", v.prefix(4).map(String.init).joined(separator: ".")) }
        if let model = ifd0.string(Tag.uniqueCameraModel) { report.add("DNG", "UniqueCameraModel", model) }
        if let raw = rawIFD {
            if let w = raw.integer(Tag.width), let h = raw.integer(Tag.height) { report.add("DNG", "Raw image", "\(w)×\(h)") }
            if let bits = raw.integer(Tag.bitsPerSample) { report.add("DNG", "BitsPerSample", "\(bits)") }
            if let c = raw.integer(Tag.compression) { report.add("DNG", "Compression", compressionName(c)) }
            report.add("DNG", "Photometric", raw.integer(Tag.photometric) == 32803 ? "CFA" : "LinearRaw")
            if let pattern = raw.integers(Tag.cfaPattern) {
                let dims = raw.integers(Tag.cfaRepeatPatternDim) ?? [2, 2]
                let letters = pattern.map { ["R", "G", "B", "C", "M", "Y", "W"].indices.contains($0) ? ["R", "G", "B", "C", "M", "Y", "W"][$0] : "?" }
                report.add("DNG", "CFAPattern", letters.joined() + (dims == [2, 2] ? "" : " (\(dims.map(String.init).joined(separator: "×")))"))
            }
            if let black = raw.reals(Tag.blackLevel) { report.add("DNG", "BlackLevel", black.map(number).joined(separator: " ")) }
            if let white = raw.reals(Tag.whiteLevel) { report.add("DNG", "WhiteLevel", white.map(number).joined(separator: " ")) }
        } else {
            report.add("DNG", "Raw image", "none found")
        }
        if let neutral = ifd0.reals(Tag.asShotNeutral) {
            report.add("DNG", "AsShotNeutral", neutral.map { String(format: "%.4f", $0) }.joined(separator: " "))
        }
        if let ev = ifd0.real(Tag.baselineExposure) { report.add("DNG", "BaselineExposure", String(format: "%+.2f EV", ev)) }
        if let illuminant = ifd0.integer(Tag.calibrationIlluminant1) { report.add("DNG", "CalibrationIlluminant1", illuminantName(illuminant)) }
        if let illuminant = ifd0.integer(Tag.calibrationIlluminant2), ifd0.contains(Tag.colorMatrix2) {
            report.add("DNG", "CalibrationIlluminant2", illuminantName(illuminant))
        }
        if ifd0.contains(Tag.noiseProfile) { report.add("DNG", "NoiseProfile", "present") }
        if let p = preview, let w = p.integer(Tag.width), let h = p.integer(Tag.height) {
            report.thumbnailWidth = w
            report.thumbnailHeight = h
            report.add("DNG", "Preview", "\(w)×\(h)")
        }
        return report
    }

    /// IFD0 identity, the EXIF IFD and an ICC profile (tag 34675).
    private static func addTIFFMetadata(_ data: Data, ifd0: TIFFTagReader.Directory, to report: inout FileReport) {
        if let exif = try? ExifReader.read(jpeg: data) {
            addExif(exif, to: &report)
        }
        if let profile = ifd0.bytes(Tag.iccProfile) { report.setICC(Data(profile)) }
    }

    // MARK: - Other camera raws (LibRaw)

    private static func cameraRaw(_ data: Data, brand: String?) throws -> FileReport {
        let raw: RawImage, file: RawFileInfo
        do {
            (raw, file) = try RawDeveloper.read(data)
        } catch RawDevelopError.truncated {
            throw FileInspectionError.truncated
        } catch RawDevelopError.unsupported(let why) {
            throw FileInspectionError.notRecognized("a raw file OpenCapture cannot read (\(why))")
        } catch {
            throw FileInspectionError.notRecognized("not a JPEG, PNG, TIFF, DNG, HEIF or camera raw file")
        }
        let info = RawDeveloper.info(raw: raw, file: file)
        var report = FileReport(kind: file.dngVersion != nil ? .dng : .cameraRaw, width: raw.width, height: raw.height)
        report.add("File", "Kind", brand ?? report.kind.rawValue)
        report.add("File", "Size", "\(raw.width)×\(raw.height)")
        report.add("File", "Stored mosaic", "\(file.rawWidth)×\(file.rawHeight)")
        if data.starts(with: [0x49, 0x49]) || data.starts(with: [0x4D, 0x4D]), let exif = try? ExifReader.read(jpeg: data) {
            addExif(exif, to: &report)
        } else {
            var exif = ExifMetadata()
            exif.make = info.make
            exif.model = info.model
            exif.dateTimeOriginal = info.captureDate
            exif.exposureTime = info.exposureTime > 0 ? info.exposureTime : nil
            exif.fNumber = info.fNumber > 0 ? info.fNumber : nil
            exif.iso = info.iso > 0 ? Int(info.iso.rounded()) : nil
            exif.focalLength = info.focalLength > 0 ? info.focalLength : nil
            exif.orientation = info.orientation
            addExif(exif, to: &report)
        }
        report.add("Raw", "CFAPattern", info.cfaPattern)
        report.add("Raw", "BitDepth", "\(info.bitDepth)")
        report.add("Raw", "BlackLevel", info.blackLevel.map(number).joined(separator: " "))
        report.add("Raw", "WhiteLevel", "\(info.whiteLevel)")
        report.add("Raw", "AsShotNeutral", info.asShotNeutral.map { String(format: "%.4f", $0) }.joined(separator: " "))
        return report
    }

    // MARK: - HEIF

    private static func heif(_ data: Data, brand: String) throws -> FileReport {
        let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]
        guard heifBrands.contains(brand) else { throw FileInspectionError.notRecognized("ISO media file with brand '\(brand)'") }
        var report = FileReport(kind: .heif)
        report.add("File", "Kind", brand == "avif" || brand == "avis" ? "AVIF" : "HEIF")
        report.add("HEIF", "Brand", brand)
        try checkTopLevelBoxes(data)
        // TODO: switch to MediaFormats' box-parsing HEIF info API (EXIF, ICC, thumbnails per item) when it lands.
        let info: HEIFInfo
        do {
            info = try HEIFDecoder.info(data)
        } catch let error as MediaFormatError {
            throw error == .truncated ? FileInspectionError.truncated : FileInspectionError.malformed(error.description)
        }
        report.width = info.width
        report.height = info.height
        report.entries.insert(FileReportEntry(section: "File", name: "Size", value: "\(info.width)×\(info.height)"), at: 1)
        report.add("HEIF", "Primary item", info.primaryItemType)
        report.add("HEIF", "Items", "\(info.itemCount)")
        if info.hasExif { report.add("HEIF", "Exif", "present") }
        if info.hasXMP { report.add("HEIF", "XMP", "present") }
        if let thumbnail = info.thumbnailSize { report.setThumbnail(thumbnail.width, thumbnail.height, bytes: nil) }
        if let description = info.colorProfileDescription {
            report.iccProfileDescription = description
            report.add("ICC", "Profile", "'\(description)'")
        } else if let primaries = info.colorPrimaries {
            report.add("ICC", "nclx primaries", primaries == 12 ? "Display P3 (12)" : primaries == 1 ? "sRGB / BT.709 (1)" : "\(primaries)")
        }
        return report
    }

    /// Walks the top-level ISO-BMFF boxes: each must fit in the file, so a cut file is reported as truncated.
    private static func checkTopLevelBoxes(_ data: Data) throws {
        let b = [UInt8](data)
        var offset = 0
        while offset < b.count {
            guard offset + 8 <= b.count else { throw FileInspectionError.truncated }
            var size = UInt64(be32(b, offset))
            var header = 8
            if size == 1 {
                guard offset + 16 <= b.count else { throw FileInspectionError.truncated }
                size = UInt64(be32(b, offset + 8)) << 32 | UInt64(be32(b, offset + 12))
                header = 16
            } else if size == 0 {
                return  // the last box runs to the end of the file
            }
            guard size >= UInt64(header) else { throw FileInspectionError.malformed("a box of \(size) bytes") }
            guard size <= UInt64(b.count - offset) else { throw FileInspectionError.truncated }
            offset += Int(size)
        }
    }

    // MARK: - Shared

    private static func addExif(_ exif: ExifMetadata, to report: inout FileReport) {
        let s = "EXIF"
        if let v = exif.make, !v.isEmpty { report.add(s, "Make", v) }
        if let v = exif.model, !v.isEmpty { report.add(s, "Model", v) }
        if let v = exif.software { report.add(s, "Software", v) }
        if let v = exif.dateTimeOriginal {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: exif.timeZoneOffsetSeconds)
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            report.add(s, "DateTimeOriginal", formatter.string(from: v))
        }
        if let v = exif.exposureTime {
            report.add(s, "ExposureTime", v > 0 && v < 0.5 ? "1/\(number((1 / v * 10).rounded() / 10)) s" : "\(number(v)) s")
        }
        if let v = exif.fNumber { report.add(s, "FNumber", "f/\(number(v))") }
        if let v = exif.iso { report.add(s, "ISO", "\(v)") }
        if let v = exif.focalLength {
            report.add(s, "FocalLength", "\(number(v)) mm" + (exif.focalLengthIn35mmFilm.map { " (\($0) mm in 35 mm film)" } ?? ""))
        }
        if let v = exif.exposureBiasValue { report.add(s, "ExposureBiasValue", String(format: "%+.2f EV", v)) }
        if let v = exif.flash { report.add(s, "Flash", flashName(v)) }
        report.add(s, "Orientation", "\(exif.orientation)")
        if let v = exif.lensModel { report.add(s, "LensModel", v) }
        if let w = exif.pixelXDimension, let h = exif.pixelYDimension { report.add(s, "PixelDimensions", "\(w)×\(h)") }
    }

    private static func flashName(_ code: UInt16) -> String {
        let fired = code & 1 == 1 ? "fired" : "did not fire"
        let mode = [0: "", 1: ", compulsory on", 2: ", compulsory off", 3: ", auto"][Int(code >> 3 & 3)] ?? ""
        return String(format: "0x%02X (", code) + fired + mode + ")"
    }

    private static func compressionName(_ code: Int) -> String {
        [1: "none", 5: "LZW", 6: "JPEG (old)", 7: "JPEG", 8: "Deflate", 32773: "PackBits", 34892: "lossy JPEG", 52546: "JPEG XL"][code]
            .map { "\($0) (\(code))" } ?? "\(code)"
    }

    private static func illuminantName(_ code: Int) -> String {
        [17: "Standard A", 21: "D65", 23: "D50", 20: "D55", 22: "D75", 1: "Daylight", 2: "Fluorescent", 3: "Tungsten"][code]
            .map { "\($0) (\(code))" } ?? "\(code)"
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v)
    }

    private static func be32(_ b: [UInt8], _ o: Int) -> UInt32 {
        UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
    }

    private enum Tag {
        static let newSubfileType: UInt16 = 254, width: UInt16 = 256, height: UInt16 = 257, bitsPerSample: UInt16 = 258
        static let compression: UInt16 = 259, photometric: UInt16 = 262, make: UInt16 = 271, subIFDs: UInt16 = 330
        static let cfaRepeatPatternDim: UInt16 = 33421, cfaPattern: UInt16 = 33422, iccProfile: UInt16 = 34675
        static let dngVersion: UInt16 = 50706, uniqueCameraModel: UInt16 = 50708, blackLevel: UInt16 = 50714
        static let whiteLevel: UInt16 = 50717, defaultCropSize: UInt16 = 50720, colorMatrix2: UInt16 = 50722
        static let asShotNeutral: UInt16 = 50728, baselineExposure: UInt16 = 50730
        static let calibrationIlluminant1: UInt16 = 50778, calibrationIlluminant2: UInt16 = 50779, noiseProfile: UInt16 = 51041
    }
}

extension FileReport {
    mutating func add(_ section: String, _ name: String, _ value: String) {
        entries.append(FileReportEntry(section: section, name: name, value: value))
    }

    mutating func setThumbnail(_ width: Int, _ height: Int, bytes: Int?) {
        thumbnailWidth = width
        thumbnailHeight = height
        add("Thumbnail", "Size", "\(width)×\(height)" + (bytes.map { " (\($0) bytes)" } ?? ""))
    }

    mutating func setICC(_ profile: Data) {
        let description = ICCProfile.description(of: profile)
        iccProfileDescription = description
        add("ICC", "Profile", (description.map { "'\($0)'" } ?? "unreadable description") + " (\(profile.count) bytes)")
    }
}
