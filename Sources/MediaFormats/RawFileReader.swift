import CLibRaw
import CaptureCore
import Foundation

/// Reads camera raw files and DNGs with LibRaw: the undeveloped Bayer mosaic (LibRaw's unpacked
/// `raw_image`, cropped to the visible area) with what OpenCapture's own pipeline needs to develop
/// it — black and white levels, CFA layout, as-shot neutral, camera → sRGB matrix, exposure — cut to a
/// DNG's DefaultCrop. An uncompressed 16-bit DNG's samples are copied straight from the file on every
/// core instead of through LibRaw's unpack (the same values; LibRaw still reads all its metadata).
///
/// Bayer (2×2 RGB) mosaics are read, and with `acceptingLinear` linear DNGs (PhotometricInterpretation LinearRaw,
/// three samples per pixel: Apple ProRAW, Adobe DNG Converter's linear option, PiDNG's and tifffile's), whose camera
/// RGB LibRaw unpacks (its `color4_image`, black level per channel) into a `RawImage` with `isLinear`; X-Trans,
/// Foveon and four-colour files throw `.unsupported`, and so does a linear DNG without `acceptingLinear`. LibRaw 0.20 does not expose DNG NoiseProfile, so libtiff reads it from
/// IFD0 of a DNG; other formats get an empty `noiseProfile`. LibRaw ignores frames under 22 pixels.
public enum RawFileReader {
    public static func read(contentsOf url: URL) throws -> (raw: RawImage, info: RawFileInfo) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw MediaFormatError.invalidImage("cannot read \(url.path): \(error.localizedDescription)")
        }
        return try read(data)
    }

    public static func read(_ data: Data) throws -> (raw: RawImage, info: RawFileInfo) {
        try read(bytes: [UInt8](data))
    }

    /// The same from the file's bytes in an array (read from them in place, never copied whole).
    public static func read(bytes: [UInt8]) throws -> (raw: RawImage, info: RawFileInfo) {
        try read(bytes: bytes, copyingUncompressedMosaic: true)
    }

    /// The same, reading a linear DNG too when `acceptingLinear` (as a `RawImage` whose `isLinear`, which
    /// `ImageSignalProcessor` develops; frame merging, DNG writing and replay take mosaics only, so they do not ask).
    public static func read(bytes: [UInt8], acceptingLinear: Bool) throws -> (raw: RawImage, info: RawFileInfo) {
        try read(bytes: bytes, copyingUncompressedMosaic: true, acceptingLinear: acceptingLinear)
    }

    /// `copyingUncompressedMosaic: false` has LibRaw unpack every file (tests compare the two).
    static func read(bytes: [UInt8], copyingUncompressedMosaic: Bool,
                     acceptingLinear: Bool = false) throws -> (raw: RawImage, info: RawFileInfo) {
        guard !bytes.isEmpty else { throw MediaFormatError.invalidImage("empty data") }
        // TIFF-based raws (DNG, NEF, CR2, ARW, ORF, RW2…): LibRaw parses every file that starts with a byte order as
        // TIFF, whatever its magic number, and trusts its directory pointers and value offsets, so check them first.
        guard !isBigTIFF(bytes) else { throw MediaFormatError.unsupported("BigTIFF (64-bit offsets) raw files are not supported") }
        let tiff = TIFFTagReader.isTIFFStructuredRaw(bytes) ? try TIFFTagReader(bytes: bytes, anyMagic: true) : nil
        try tiff?.validateDirectoryTree()
        // A DNG's raw directory, as LibRaw picks it: what the copy, the crop, the deltas and the opcodes read.
        let directories = tiff?.allDirectories() ?? []
        let rawDirectory = TIFFTagReader.isDNG(directories) ? TIFFTagReader.dngRawDirectory(among: directories) : nil
        if let rawDirectory { try checkDNGLayout(rawDirectory, bytes: bytes) }
        guard let lr = libraw_init(0) else { throw MediaFormatError.decoderFailed("LibRaw could not start") }
        defer { libraw_close(lr) }
        let dataErrors = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        dataErrors.initialize(to: 0)
        defer { dataErrors.deallocate() }
        opencapture_libraw_silence(lr, dataErrors)

        // LibRaw reads from the buffer until unpack has copied the mosaic out. An uncompressed DNG's mosaic is
        // copied straight from the bytes instead (`UncompressedMosaic`: the values LibRaw's unpack would produce).
        var uncompressed: UncompressedMosaic?
        try bytes.withUnsafeBytes { bytes in
            try check(libraw_open_buffer(lr, UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count), "open")
            // Header-declared sizes are checked before LibRaw allocates the mosaic.
            var header = opencapture_libraw_info()
            opencapture_libraw_get_info(lr, &header)
            try ImageLimits.check(width: Int(header.raw_width), height: Int(header.raw_height), format: "raw mosaic")
            if copyingUncompressedMosaic, header.dng_version != 0, let tiff, let rawDirectory {
                uncompressed = try UncompressedMosaic(tiff, directories: directories, raw: rawDirectory,
                                                      rawWidth: Int(header.raw_width), rawHeight: Int(header.raw_height),
                                                      fileSize: bytes.count)
            }
            if uncompressed == nil {
                if let rawDirectory, hasUncompressedTiles(rawDirectory) {
                    throw MediaFormatError.unsupported("uncompressed tiles LibRaw 0.20 cannot read (with MaskedAreas, or a "
                                                       + "linearization table outside the raw image's directory)")
                }
                try check(libraw_unpack(lr), "unpack")
            }
        }
        guard dataErrors.pointee == 0 else { throw MediaFormatError.decoderFailed("LibRaw reported corrupt or missing raw data") }
        var s = opencapture_libraw_info()
        opencapture_libraw_get_info(lr, &s)

        // A linear DNG: no CFA, three colours, LibRaw's samples four to a pixel (R, G, B, unused).
        let linear = uncompressed == nil && s.raw_image == nil && s.color4_image != nil && s.filters == 0 && s.colors == 3
        if linear {
            guard acceptingLinear else {
                throw MediaFormatError.unsupported("not a single-channel mosaic (a linear DNG, read only to develop)")
            }
        } else {
            guard uncompressed != nil || s.raw_image != nil else {
                throw MediaFormatError.unsupported("not a single-channel mosaic (linear DNG, Foveon or float data)")
            }
            guard s.filters >= 1000, s.colors == 3, string(s.cdesc).hasPrefix("RGBG") else {
                throw MediaFormatError.unsupported("not an RGB Bayer mosaic (colours \(s.colors), \(string(s.cdesc)))")
            }
        }
        let width = Int(s.width), height = Int(s.height), top = Int(s.top_margin), left = Int(s.left_margin)
        let pitch = linear ? Int(s.raw_pitch) / 8 : uncompressed == nil ? Int(s.raw_pitch) / 2 : Int(s.raw_width)
        guard width >= 2, height >= 2, top + height <= Int(s.raw_height), left + width <= Int(s.raw_width),
              pitch >= Int(s.raw_width) else {
            throw MediaFormatError.invalidImage("inconsistent raw geometry \(width)×\(height) in \(s.raw_width)×\(s.raw_height)")
        }
        guard (1...65_535).contains(s.maximum) else { throw MediaFormatError.invalidImage("white level \(s.maximum)") }

        // A DNG's DefaultCrop (LibRaw 0.20 leaves it to the caller, Adobe's readers apply it): the mosaic is read from
        // the crop's corner (cx, cy) of LibRaw's visible area, its CFA phase and black levels taken from there.
        let visible = Size(width: width, height: height)
        let crop = s.dng_version != 0 ? rawDirectory.flatMap { dngDefaultCrop($0, visible: visible) } : nil
        let cx = crop?.x ?? 0, cy = crop?.y ?? 0, w = crop?.width ?? width, h = crop?.height ?? height

        // LibRaw's colour index per visible position: 0 R, 1 G, 2 B, 3 second G (a linear image's channels, for its
        // black levels; its `cfa` is unused).
        let index = { (row: Int, col: Int) in Int(libraw_COLOR(lr, Int32(row), Int32(col))) }
        let tile = linear ? [0, 1, 2] : (0..<4).map { index(cy + $0 >> 1, cx + $0 & 1) }
        let periodic = linear || (0..<16).allSatisfy { index(cy + $0 >> 2, cx + $0 & 3) == tile[($0 >> 2 & 1) << 1 | ($0 & 1)] }
        guard periodic, let cfa = linear ? CFAPattern.rggb : CFAPattern.allCases.first(where: { $0.colors == tile.map { $0 == 3 ? 1 : $0 } }) else {
            throw MediaFormatError.unsupported("CFA layout \(tile) is not a 2×2 Bayer pattern")
        }
        let channels = linear ? 3 : 1

        var mosaic: [UInt16]
        if linear {
            let source = s.color4_image!
            mosaic = [UInt16](unsafeUninitializedCapacity: w * h * 3) { out, initialized in
                for y in 0..<h {
                    let row = source + ((top + cy + y) * pitch + left + cx) * 4, o = out.baseAddress! + y * w * 3
                    for x in 0..<w {
                        o[3 * x] = row[4 * x]
                        o[3 * x + 1] = row[4 * x + 1]
                        o[3 * x + 2] = row[4 * x + 2]
                    }
                }
                initialized = w * h * 3
            }
        } else if let uncompressed {
            mosaic = uncompressed.copy(from: bytes, top: top + cy, left: left + cx, width: w, height: h)
        } else {
            let source = s.raw_image!
            mosaic = [UInt16](unsafeUninitializedCapacity: w * h) { out, initialized in
                for y in 0..<h {
                    (out.baseAddress! + y * w).initialize(from: source + (top + cy + y) * pitch + left + cx, count: w)
                }
                initialized = w * h
            }
        }

        // Per-row and per-column black level deltas, taken off the samples so one black level per CFA position holds.
        if s.dng_version != 0, let rawDirectory, let deltas = dngBlackLevelDeltas(rawDirectory, visible: visible) {
            mosaic.withUnsafeMutableBufferPointer { samples in
                for y in 0..<h {
                    let rowDelta = deltas.rows[cy + y]
                    for i in 0..<(w * channels) {
                        let at = y * w * channels + i
                        let value = Double(samples[at]) - rowDelta - deltas.columns[cx + i / channels]
                        samples[at] = UInt16(min(65_535, max(0, value.rounded())))
                    }
                }
            }
        }

        let cblack = withUnsafeBytes(of: s.cblack) { Array($0.bindMemory(to: UInt32.self)) }
        let pattern = withUnsafeBytes(of: s.cblack_pattern) { Array($0.bindMemory(to: UInt32.self)) }
        let blackLevel: [Float] = tile.indices.map { i in
            let row = linear ? cy : cy + i >> 1, col = linear ? cx : cx + i & 1
            var b = Double(s.black) + Double(cblack[tile[i]])
            if s.cblack_rows > 0, s.cblack_cols > 0 {
                b += Double(pattern[(row % Int(s.cblack_rows)) * Int(s.cblack_cols) + col % Int(s.cblack_cols)])
            }
            return Float(b)
        }

        if let level = blackLevel.first(where: { $0 >= Float(s.maximum) }) {
            throw MediaFormatError.invalidMetadata("black level \(Int(level)) is not below the white level \(s.maximum)")
        }

        let multipliers = whiteBalance(s)
        let rgbCam = withUnsafeBytes(of: s.rgb_cam) { Array($0.bindMemory(to: Float.self)) }
        var matrix = Matrix3(rowMajor: (0..<9).map { Double(rgbCam[($0 / 3) * 4 + $0 % 3]) })
        if matrix.m.allSatisfy({ $0 == 0 }) { matrix = .identity }

        var raw = RawImage(bayer: Raster(width: w, height: h, channels: channels, storage: mosaic), cfa: cfa,
                           bitDepth: min(16, max(1, Int(log2(Double(s.maximum) + 1).rounded(.up)))),
                           blackLevel: blackLevel, whiteLevel: Int(s.maximum),
                           asShotNeutral: 1 / multipliers, cameraToSRGB: matrix,
                           noiseProfile: s.dng_version != 0 ? bytes.withUnsafeBytes { dngNoiseProfile($0) } : [],
                           exposure: ExposureRecord(duration: Double(s.shutter), iso: Double(s.iso_speed)))
        if s.baseline_exposure.isFinite, abs(s.baseline_exposure) <= 8 { raw.baselineExposure = Double(s.baseline_exposure) }
        if s.dng_version != 0, let rawDirectory {
            raw.lensCorrection = dngLensCorrection(rawDirectory, size: visible)?.cropped(x: cx, y: cy, width: w, height: h)
        }
        let info = RawFileInfo(make: string(s.make), model: string(s.model), width: w, height: h,
                               rawWidth: Int(s.raw_width), rawHeight: Int(s.raw_height),
                               iso: Double(s.iso_speed), exposureTime: Double(s.shutter), fNumber: Double(s.aperture),
                               focalLength: Double(s.focal_len),
                               timestamp: s.timestamp > 0 ? Date(timeIntervalSince1970: TimeInterval(s.timestamp)) : nil,
                               dngVersion: s.dng_version != 0 ? UInt32(s.dng_version) : nil,
                               asShotMultipliers: multipliers, orientation: orientation(flip: Int(s.flip)),
                               exif: tiff.flatMap { try? ExifReader.read(tiff: $0.parser) })
        return (raw, info)
    }

    /// As-shot multipliers (cam_mul, else the daylight pre_mul, else none), green = 1.
    private static func whiteBalance(_ s: opencapture_libraw_info) -> SIMD3<Double> {
        for m in [s.cam_mul, s.pre_mul] {
            let v = SIMD3(Double(m.0), Double(m.1), Double(m.2))
            if v.min() > 0, v.max().isFinite { return v / v.y }
        }
        return SIMD3(1, 1, 1)
    }

    /// LibRaw's `flip` (bit 0 mirrors left-right, bit 1 top-bottom, bit 2 transposes; LibRaw reads a TIFF Orientation
    /// through "50132467") as the EXIF orientation: the mirrored ones too (a front camera's or a scanned film's).
    static func orientation(flip: Int) -> Int {
        switch flip {
        case 1: return 2
        case 2: return 4
        case 3: return 3
        case 4: return 5
        case 5: return 8
        case 6: return 6
        case 7: return 7
        default: return 1
        }
    }

    private static func check(_ code: Int32, _ stage: String) throws {
        guard code != LIBRAW_SUCCESS.rawValue else { return }
        let message = libraw_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        switch code {
        case LIBRAW_FILE_UNSUPPORTED.rawValue: throw MediaFormatError.invalidImage("LibRaw: \(message)")
        // Opening, LibRaw reads past the end of anything it cannot identify: a text file is not a cut raw.
        case LIBRAW_IO_ERROR.rawValue where stage == "open":
            throw MediaFormatError.invalidImage("not a raw file LibRaw recognises (or one cut short before its image)")
        case LIBRAW_IO_ERROR.rawValue: throw MediaFormatError.truncated
        case LIBRAW_TOO_BIG.rawValue, LIBRAW_UNSUFFICIENT_MEMORY.rawValue:
            throw MediaFormatError.unsupported("LibRaw \(stage): \(message)")
        default: throw MediaFormatError.decoderFailed("LibRaw \(stage): \(message)")
        }
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
