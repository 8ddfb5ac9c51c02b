import CaptureCore
import Foundation
import MediaFormats

/// Reports what an image file holds (OpenCapture addition): kind (JPEG, PNG, TIFF, DNG, camera raw,
/// HEIF), dimensions, EXIF (Make, Model, DateTimeOriginal, ExposureTime, FNumber, ISO, FocalLength,
/// Flash, Orientation…), embedded thumbnail size, ICC profile description, and DNG tags (DNGVersion,
/// UniqueCameraModel, CFA pattern, black and white level, AsShotNeutral, preview size), and for
/// HEIC and JPEG an embedded depth map (size, type, accuracy, filtering, range), portrait matte
/// (size) and the depth map's camera calibration (fx, fy, cx, cy, reference size, pixel size,
/// translation and baseline). Only headers and metadata are parsed, except for non-DNG camera raws, which LibRaw opens.
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

    /// Reports on `data`, whose kind is recognised by its structure (`FileKind`), never by a name.
    public static func inspect(_ data: Data) throws -> FileReport {
        guard !data.isEmpty else { throw FileInspectionError.notRecognized("empty file") }
        switch FileKind.of(data) {
        case .jpeg: return try jpeg(data)
        case .png: return try png(data)
        case .tiff: return try tiff(data, kind: .tiff)
        case .dng: return try tiff(data, kind: .dng)
        case .heif: return try heif(data)
        case .movie: return try movie(data)
        case .cameraRaw:
            do {
                return try cameraRaw(data)
            } catch FileInspectionError.notRecognized(let why) {
                // A maker TIFF LibRaw cannot open still has readable tags.
                guard (try? TIFFTagReader(data)) != nil else { throw FileInspectionError.notRecognized(why) }
                return try tiff(data, kind: .tiff)
            }
        case .radianceHDR:
            throw FileInspectionError.notRecognized("a Radiance HDR image; inspect reads JPEG, PNG, TIFF, DNG, HEIF and camera raw files")
        case nil:
            // Camera raw formats FileKind does not name (LibRaw reads many more).
            return try cameraRaw(data)
        }
    }

    /// The one mapping of a reader's error to the inspector's.
    private static func inspectionError(_ error: MediaFormatError) -> FileInspectionError {
        error == .truncated ? .truncated : .malformed(error.description)
    }

    // MARK: - JPEG

    private static func jpeg(_ data: Data) throws -> FileReport {
        var report = FileReport(kind: .jpeg)
        // Headers that run past the end of the file: cut (libjpeg may read such a header to its end regardless).
        do { _ = try JPEGSegments.segments(in: data) } catch MediaFormatError.truncated { throw FileInspectionError.truncated } catch {}
        var header: JPEGHeader
        var decodable = true
        do {
            header = try JPEGDecoder.header(of: data)
        } catch let error as MediaFormatError {
            // A JPEG libjpeg-turbo 2.1 cannot open (12- or 16-bit, lossless, hierarchical) is still described from its
            // frame header; an 8-bit one it refuses is refused here too, for its reason.
            guard error != .truncated, let frame = try? JPEGHeader.frame(in: data), !frame.isDecodableHere else {
                throw inspectionError(error)
            }
            header = frame
            decodable = false
        }
        // The headers alone decode: a file whose image data runs out before its end marker is cut, and one whose data is
        // far too short for the frame its header claims is damaged.
        switch JPEGSegments.imageDataProblem(in: data) {
        case .cutShort?: throw FileInspectionError.truncated
        case let problem?: throw FileInspectionError.malformed("\(problem)")
        case nil: break
        }
        let size = header.size
        report.width = size.width
        report.height = size.height
        report.add("File", "Kind", "JPEG")
        report.add("File", "Size", "\(size.width)×\(size.height)")
        let ratio: String? = switch header.chromaSampling {
        case SIMD2(1, 1)?: "4:4:4"
        case SIMD2(2, 1)?: "4:2:2"
        case SIMD2(2, 2)?: "4:2:0"
        case SIMD2(4, 1)?: "4:1:1"
        case SIMD2(1, 2)?: "4:4:0"
        default: nil
        }
        let layout: String
        switch (header.components, header.storesRGB, ratio) {
        case (1, _, _): layout = "greyscale"
        case (4, _, _): layout = "CMYK"
        case (3, true, _): layout = "RGB" + (ratio == nil || ratio == "4:4:4" ? "" : " " + ratio!)
        case (3, false, let ratio?): layout = "YCbCr " + ratio
        default: layout = "\(header.components) components"
        }
        let process = (header.isHierarchical ? "hierarchical " : "")
            + (header.isLossless ? "lossless, " : header.isProgressive ? "progressive, " : "sequential, ")
            + (header.isArithmetic ? "arithmetic-coded, " : "")
        report.add("File", "Encoding", process + (header.bitsPerSample == 8 ? "" : "\(header.bitsPerSample)-bit, ") + layout)
        if !decodable {
            report.add("File", "Pixels", "not decoded here (this build's libjpeg-turbo reads 8-bit, non-hierarchical DCT JPEGs only): headers and metadata only")
        }
        if let exif = try? ExifReader.read(jpeg: data) { addExif(exif, to: &report) }
        if let thumbnail = try? ExifReader.thumbnail(jpeg: data), let size = try? JPEGDecoder.size(of: thumbnail) {
            report.setThumbnail(size.width, size.height, bytes: thumbnail.count)
        }
        if let profile = try? JPEGSegments.iccProfile(in: data) { report.setICC(profile) }
        addEmbeddedDepth(data, to: &report)
        addMotionPhoto(data, to: &report)
        return report
    }

    /// A Motion Photo's embedded video (JPEG: appended; HEIC: in the top-level `mpvd` box), if the file has one.
    private static func addMotionPhoto(_ data: Data, to report: inout FileReport) {
        let motion: MotionPhoto.Info
        do {
            guard let info = try MotionPhoto.read(data) else { return }
            motion = info
        } catch {
            report.add("Motion Photo", "Video", "missing — \(error)")
            report.problems.append("Motion Photo video: \(error)")
            return
        }
        report.add("Motion Photo", "Video", "\(motion.video.count) bytes at offset \(motion.video.lowerBound)")
        if motion.presentationTimestampUs >= 0 {
            report.add("Motion Photo", "Presentation time", String(format: "%.3f s", Double(motion.presentationTimestampUs) / 1e6))
        }
    }

    // MARK: - Movie

    /// A QuickTime/MPEG-4 movie: size as shown (its video track's pixel aspect and matrix applied, as players and Photos
    /// show it), the frames' stored (coded) size when it differs, and that turn, duration, tracks, movie metadata and,
    /// for a Live Photo's movie, its pairing.
    private static func movie(_ data: Data) throws -> FileReport {
        let movie: QuickTimeMovie
        do {
            movie = try QuickTimeMovie.parse(data)
        } catch let error as MediaFormatError {
            throw inspectionError(error)
        }
        let video = movie.videoTrack
        var report = FileReport(kind: .movie, width: video?.displayWidth, height: video?.displayHeight)
        report.add("File", "Kind", movie.brand == "qt  " || movie.brand == nil ? "QuickTime movie" : "MPEG-4 movie (\(movie.brand!))")
        if let video {
            report.add("File", "Size", "\(video.displayWidth)×\(video.displayHeight)")
            let stored = "stored \(video.storedWidth)×\(video.storedHeight)"
            if video.isAnamorphic {
                report.add("Movie", "Pixel aspect", "\(video.pixelAspectHorizontal):\(video.pixelAspectVertical), \(stored) shown "
                           + "\(video.presentationWidth)×\(video.presentationHeight)" + (turn(video.displayMatrix) == nil ? "" : " before the turn"))
            }
            if let turn = turn(video.displayMatrix) {
                report.add("Movie", "Rotation", "\(turn) (track matrix), \(stored)")
            }
        }
        report.add("Movie", "Duration", String(format: "%.3f s", movie.duration))
        if let created = movie.creationDate { report.add("Movie", "Created", ExifDate(date: created, offsetSeconds: 0).dateTime + " UTC") }
        for (index, track) in movie.tracks.enumerated() {
            var detail = ""
            if track.handler == "vide" {
                let changes = [track.isAnamorphic ? "\(track.pixelAspectHorizontal):\(track.pixelAspectVertical) pixels" : nil,
                               turn(track.displayMatrix)].compactMap { $0 }
                let shown = changes.isEmpty ? "" : " shown \(track.displayWidth)×\(track.displayHeight) (\(changes.joined(separator: ", ")))"
                detail = " \(track.storedWidth)×\(track.storedHeight)\(shown), \(track.sampleCount) frames"
                if movie.duration > 0 { detail += String(format: " (%.1f fps on average)", Double(track.sampleCount) / movie.duration) }
            }
            report.add("Movie", "Track \(index + 1)", "\(track.handler) \(track.format.trimmingCharacters(in: .whitespaces))\(detail)")
        }
        for (key, value) in movie.pairing.metadata.sorted(by: { $0.key < $1.key }) { report.add("Metadata", key, value) }
        if let identifier = movie.pairing.contentIdentifier {
            report.add("Live Photo", "Content identifier", identifier)
            if let time = movie.pairing.stillImageTime { report.add("Live Photo", "Still image time", String(format: "%.3f s", time)) }
        }
        return report
    }

    /// How a video track's display matrix shows its stored frames, in words (as its EXIF orientation reads); nil when
    /// it shows them as stored.
    private static func turn(_ matrix: DisplayMatrix) -> String? {
        switch matrix.exifOrientation {
        case 2: return "mirrored left to right"
        case 3: return "turned 180°"
        case 4: return "mirrored top to bottom"
        case 5: return "mirrored left to right, then turned 90° counter-clockwise"
        case 6: return "turned 90° clockwise"
        case 7: return "mirrored left to right, then turned 90° clockwise"
        case 8: return "turned 90° counter-clockwise"
        default: return nil
        }
    }

    // MARK: - PNG

    private static func png(_ data: Data) throws -> FileReport {
        let header: PNGHeader, chunks: [PNGHeader.Chunk]
        do {
            header = try PNGHeader(data)
            chunks = try PNGHeader.chunks(in: data)
            if let bad = try PNGHeader.firstChunkWithBadCRC(in: data) { throw FileInspectionError.malformed("PNG chunk \(bad): CRC mismatch") }
        } catch let error as MediaFormatError {
            throw inspectionError(error)
        }
        var report = FileReport(kind: .png, width: header.width, height: header.height)
        report.add("File", "Kind", "PNG")
        report.add("File", "Size", "\(header.width)×\(header.height)")
        let colorTypes = [0: "grey", 2: "RGB", 3: "palette", 4: "grey + alpha", 6: "RGBA"]
        report.add("PNG", "Bit depth", "\(header.bitDepth)")
        report.add("PNG", "Colour type", colorTypes[header.colorType] ?? "\(header.colorType)")
        for chunk in chunks {
            let body = data.subdata(in: (data.startIndex + chunk.body.lowerBound)..<(data.startIndex + chunk.body.upperBound))
            switch chunk.type {
            case "iCCP":
                report.add("ICC", "Profile name", String(decoding: body.prefix { $0 != 0 }, as: UTF8.self))
                if let profile = try? PNGHeader.iccProfile(chunk: body) { report.setICC(profile) }
            case "sRGB": report.add("ICC", "sRGB chunk", "rendering intent \(body.first ?? 0)")
            case "eXIf": if let exif = try? ExifReader.read(jpeg: body) { addExif(exif, to: &report) }
            default: break
            }
        }
        return report
    }

    // MARK: - TIFF, DNG and TIFF-based raws

    /// A TIFF or DNG (`kind` as `FileKind` found it): DNG tags, or the picture's own.
    private static func tiff(_ data: Data, kind: InspectedFileKind) throws -> FileReport {
        let reader: TIFFTagReader
        let main: [TIFFTagReader.Directory]
        do {
            reader = try TIFFTagReader(data)
            main = try reader.mainDirectories()
            // Every directory the file points to lies within it (a DNG cut before its raw image's SubIFD is truncated),
            // as the raw reader checks before LibRaw walks them.
            try reader.validateDirectoryTree()
        } catch let error as MediaFormatError {
            throw inspectionError(error)
        }
        guard let ifd0 = main.first else { throw FileInspectionError.malformed("TIFF without an image directory") }
        let all = main + main.flatMap { reader.subDirectories(of: $0) }
        // The directories read; a file cut after them has image data (strips or tiles) that ends past its end.
        do {
            try reader.checkImageDataWithinFile(all)
        } catch let error as MediaFormatError {
            throw inspectionError(error)
        }
        if kind == .dng { return dng(data, ifd0: ifd0, all: all, rawIFD: reader.dngRawDirectory) }

        var report = FileReport(kind: .tiff, width: ifd0.integer(Tag.width), height: ifd0.integer(Tag.height))
        report.add("File", "Kind", "TIFF")
        if let w = report.width, let h = report.height { report.add("File", "Size", "\(w)×\(h)") }
        if let bits = ifd0.integers(Tag.bitsPerSample) { report.add("File", "Bits per sample", bits.map(String.init).joined(separator: ",")) }
        if let c = ifd0.integer(Tag.compression) { report.add("File", "Compression", compressionName(c)) }
        if main.count > 1 { report.add("File", "Directories", "\(main.count)") }
        addTIFFMetadata(data, ifd0: ifd0, to: &report)
        return report
    }

    private static func dng(_ data: Data, ifd0: TIFFTagReader.Directory, all: [TIFFTagReader.Directory],
                            rawIFD: TIFFTagReader.Directory?) -> FileReport {
        var report = FileReport(kind: .dng)
        let preview = all.filter { $0.integer(Tag.newSubfileType) == 1 }
            .max { ($0.integer(Tag.width) ?? 0) < ($1.integer(Tag.width) ?? 0) }
        report.add("File", "Kind", "DNG")
        if let raw = rawIFD {
            // The size a reader develops: the DefaultCrop inside the ActiveArea, else the whole raw image.
            let developedSize = raw.dngDevelopedSize
            report.width = developedSize?.width
            report.height = developedSize?.height
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

    private static func cameraRaw(_ data: Data) throws -> FileReport {
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
        report.add("File", "Kind", report.kind.rawValue)
        report.add("File", "Size", "\(raw.width)×\(raw.height)")
        report.add("File", "Stored mosaic", "\(file.rawWidth)×\(file.rawHeight)")
        if let exif = try? ExifReader.read(jpeg: data) {           // TIFF-based raws carry an EXIF IFD
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

    /// From the file's boxes (`HEIFStructure`): the primary image's real size, its thumbnail item,
    /// its EXIF (read by the one EXIF reader), XMP, ICC profile and nclx primaries. Item data
    /// past the end of the file makes the file truncated.
    private static func heif(_ data: Data) throws -> FileReport {
        let heif: HEIFStructure
        do {
            heif = try HEIFStructure.parse(data)
        } catch let error as MediaFormatError {
            throw inspectionError(error)
        }
        var report = FileReport(kind: .heif, width: heif.width, height: heif.height)
        report.add("File", "Kind", ["avif", "avis"].contains(heif.majorBrand) ? "AVIF" : "HEIF")
        report.add("File", "Size", "\(heif.width)×\(heif.height)")
        // HEIF's size is as displayed (readers apply irot to the pixels; a JPEG's Orientation is only a tag): say so.
        if heif.primary.rotation != 0, let w = heif.primary.width, let h = heif.primary.height {
            report.add("HEIF", "Rotation", "\(heif.primary.rotation * 90)° counter-clockwise (irot), stored \(w)×\(h)")
        }
        report.add("HEIF", "Brand", heif.majorBrand)
        report.add("HEIF", "Compatible brands", heif.compatibleBrands.joined(separator: ", "))
        report.add("HEIF", "Primary item", heif.primary.type)
        report.add("HEIF", "Items", "\(heif.items.count)")
        if let exif = heif.exif {
            report.add("HEIF", "Exif", "\(exif.count) bytes")
            if let fields = try? ExifReader.read(jpeg: exif) {
                addExif(fields, to: &report)
            } else {
                report.add("HEIF", "Exif", "unreadable")
            }
        }
        if let xmp = heif.xmp { report.add("HEIF", "XMP", "\(xmp.count) bytes") }
        if let size = heif.thumbnailSize { report.setThumbnail(size.width, size.height, bytes: nil) }
        if let profile = heif.iccProfile { report.setICC(profile) }
        if let primaries = heif.colorPrimaries {
            report.add("ICC", "nclx primaries", primaries == 12 ? "Display P3 (12)" : primaries == 1 ? "sRGB / BT.709 (1)" : "\(primaries)")
        }
        addEmbeddedDepth(data, to: &report)
        addMotionPhoto(data, to: &report)
        return report
    }

    // MARK: - Depth and matte (HEIC auxiliary images, JPEG MPF secondary images)

    /// Sections "Depth", "Matte" and "Calibration"; a damaged depth structure is reported (and is a problem), not
    /// thrown.
    private static func addEmbeddedDepth(_ data: Data, to report: inout FileReport) {
        let d: EmbeddedDepthDescription
        do {
            d = try EmbeddedDepthReader.describe(data)
        } catch {
            report.add("Depth", "Error", "\(error)")
            report.problems.append("depth: \(error)")
            return
        }
        if let size = d.depthSize, let m = d.depthMetadata {
            let unit = m.depthKind == .disparity ? "1/m" : "m"
            report.add("Depth", "Size", "\(size.width)×\(size.height)")
            report.add("Depth", "Type", (m.auxiliaryImageType ?? "unknown")
                + (m.nativeFormat.map { " (\($0))" } ?? "") + (m.storedFormat.map { ", stored \($0)" } ?? ""))
            if let a = m.accuracy { report.add("Depth", "Accuracy", a == .absolute ? "absolute" : "relative") }
            if let q = m.quality { report.add("Depth", "Quality", q == .high ? "high" : "low") }
            if let f = m.isFiltered { report.add("Depth", "Filtered", f ? "yes" : "no") }
            if let lo = m.floatMinValue, let hi = m.floatMaxValue {
                report.add("Depth", "Range", "\(number(Double(lo)))…\(number(Double(hi))) \(unit)")
            }
            if let c = m.calibration {
                let s = "Calibration"
                func number(_ v: Double) -> String { String(format: "%.6g", v) }
                report.add(s, "fx, fy", "\(number(c.focalLength.x)), \(number(c.focalLength.y)) px")
                report.add(s, "cx, cy", "\(number(c.principalPoint.x)), \(number(c.principalPoint.y)) px")
                report.add(s, "Reference size", "\(c.referenceDimensions.width)×\(c.referenceDimensions.height)")
                report.add(s, "Pixel size", "\(number(c.pixelSize * 1000)) µm")
                let t = c.translation * 1000
                report.add(s, "Translation", "\(number(t.x)), \(number(t.y)), \(number(t.z)) mm")
                report.add(s, "Baseline", "\(number((t * t).sum().squareRoot())) mm")
                report.add(s, "Distortion", c.lensDistortionLookupTable.isEmpty
                    ? (m.lensDistortionCoefficients.isEmpty ? "none" : "\(m.lensDistortionCoefficients.count) polynomial coefficients")
                    : "\(c.lensDistortionLookupTable.count)-entry look-up table")
            }
        }
        if let size = d.matteSize {
            report.add("Matte", "Size", "\(size.width)×\(size.height)")
            if let v = d.matteMetadata?.portraitEffectsMatteVersion { report.add("Matte", "Version", "\(v)") }
        }
    }

    // MARK: - Shared

    private static func addExif(_ exif: ExifMetadata, to report: inout FileReport) {
        let s = "EXIF"
        if let v = exif.make, !v.isEmpty { report.add(s, "Make", v) }
        if let v = exif.model, !v.isEmpty { report.add(s, "Model", v) }
        if let v = exif.software { report.add(s, "Software", v) }
        if let v = exif.appleContentIdentifier { report.add("Live Photo", "Content identifier", v) }
        if let v = exif.dateTimeOriginal {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: exif.timeZoneOffsetSeconds)
            formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
            let zone = exif.timeZoneOffsetRecorded ? " " + ExifDate(date: v, offsetSeconds: exif.timeZoneOffsetSeconds).offset
                                                   : " (no time zone recorded)"
            report.add(s, "DateTimeOriginal", formatter.string(from: v) + zone)
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
        if let v = exif.lensSpecification, v.count == 4 {
            let focal = v[0] == v[1] ? "\(number(v[0])) mm" : "\(number(v[0]))–\(number(v[1])) mm"
            let aperture = v[2] == v[3] ? "f/\(number(v[2]))" : "f/\(number(v[2]))–\(number(v[3]))"
            report.add(s, "LensSpecification", "\(focal) \(aperture)")
        }
        if let v = exif.brightnessValue { report.add(s, "BrightnessValue", String(format: "%.2f EV", v)) }
        if let w = exif.pixelXDimension, let h = exif.pixelYDimension { report.add(s, "PixelDimensions", "\(w)×\(h)") }
        if let gps = exif.gps {
            let place = String(format: "%.6f° %@, %.6f° %@", abs(gps.latitude), gps.latitude < 0 ? "S" : "N",
                               abs(gps.longitude), gps.longitude < 0 ? "W" : "E")
            report.add("GPS", "Position", place + (gps.altitude.map { ", \(number($0)) m" } ?? ""))
            if let v = gps.timestamp { report.add("GPS", "Time", ISO8601DateFormatter().string(from: v)) }
            if let v = gps.imageDirection { report.add("GPS", "ImgDirection", "\(number(v))° \(gps.imageDirectionReference)") }
            if let v = gps.speed { report.add("GPS", "Speed", "\(number(v)) \(gps.speedReference)") }
            if let v = gps.horizontalError { report.add("GPS", "HPositioningError", "\(number(v)) m") }
        }
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

    private enum Tag {
        static let newSubfileType: UInt16 = 254, width: UInt16 = 256, height: UInt16 = 257, bitsPerSample: UInt16 = 258
        static let compression: UInt16 = 259, photometric: UInt16 = 262
        static let cfaRepeatPatternDim: UInt16 = 33421, cfaPattern: UInt16 = 33422, iccProfile: UInt16 = 34675
        static let dngVersion: UInt16 = 50706, uniqueCameraModel: UInt16 = 50708, blackLevel: UInt16 = 50714
        static let whiteLevel: UInt16 = 50717, colorMatrix2: UInt16 = 50722
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
