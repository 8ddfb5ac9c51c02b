import Foundation

/// What an image file is, recognised by its structure rather than its name: the one file-type
/// sniffer for the inspector, fusion input and raw replay.
public enum FileKind: String, Sendable, CaseIterable {
    case jpeg = "JPEG"
    case png = "PNG"
    case tiff = "TIFF"
    /// A TIFF whose IFD0 has DNGVersion (50706).
    case dng = "DNG"
    /// A camera maker's raw format (TIFF-based with a CFA or maker layout, Canon CR3, Fuji RAF,
    /// Panasonic RW2, Olympus ORF): read through LibRaw.
    case cameraRaw = "camera raw"
    /// An ISO media file with a HEIF image brand (heic, heix, mif1, avif, …).
    case heif = "HEIF"
    case radianceHDR = "Radiance HDR"
    /// A QuickTime or MPEG-4 movie (ISO base media with a movie brand, or a bare `moov`/`mdat` atom first).
    case movie = "QuickTime movie"

    /// The uniform type identifier files of this kind carry ("public.jpeg", "com.adobe.raw-image", …).
    public var uniformTypeIdentifier: String {
        switch self {
        case .jpeg: return "public.jpeg"
        case .png: return "public.png"
        case .tiff: return "public.tiff"
        case .dng: return "com.adobe.raw-image"
        case .cameraRaw: return "public.camera-raw-image"
        case .heif: return "public.heic"
        case .radianceHDR: return "public.radiance"
        case .movie: return "com.apple.quicktime-movie"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .tiff: return "tif"
        case .dng: return "dng"
        case .cameraRaw: return "raw"
        case .heif: return "heic"
        case .radianceHDR: return "hdr"
        case .movie: return "mov"
        }
    }

    /// The kind of `data`, or nil when it is none of these. JPEG needs SOI followed by a marker,
    /// PNG its signature and IHDR, TIFF a valid header and a readable IFD0, HEIF an `ftyp` box.
    public static func of(_ data: Data) -> FileKind? {
        let r = ByteReader(data.prefix(64 * 1024))
        if r.matches([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if r.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), r.matches(Array("IHDR".utf8), at: 12) { return .png }
        if r.matches(Array("#?RADIANCE".utf8)) || r.matches(Array("#?RGBE".utf8)) { return .radianceHDR }
        if r.matches(Array("ftyp".utf8), at: 4), let brand = try? r.fourCC(8) {
            if brand == "crx " { return .cameraRaw }
            let size = Int((try? r.u32(0)) ?? 0)
            let brands = [brand] + stride(from: 16, to: min(size, r.count) - 3, by: 4).compactMap { try? r.fourCC($0) }
            if brands.contains(where: heifBrands.contains) { return .heif }
            return brands.contains(where: movieBrands.contains) ? .movie : nil
        }
        if let first = try? r.fourCC(4), ["moov", "mdat", "wide", "free", "skip"].contains(first), (try? r.u32(0)).map({ $0 >= 8 }) == true {
            return .movie
        }
        if r.matches(Array("FUJIFILMCCD-RAW".utf8)) || r.matches([0x49, 0x49, 0x55, 0x00]) || r.matches(Array("IIRO".utf8))
            || r.matches(Array("MMOR".utf8)) || r.matches(Array("IIRS".utf8)) {
            return .cameraRaw
        }
        if r.matches([0x49, 0x49, 0x2A, 0x00]) || r.matches([0x4D, 0x4D, 0x00, 0x2A]) { return tiffKind(data) }
        return nil
    }

    /// Brands that announce QuickTime and MPEG-4 movies.
    static let movieBrands: Set<String> = ["qt  ", "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "M4V ", "avc1", "3gp4", "3gp5", "3g2a"]

    /// Brands that announce HEIF still images.
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    /// DNG when IFD0 has DNGVersion; camera raw when IFD0 (or a SubIFD) holds a CFA mosaic or
    /// the file is a maker TIFF (Make set, not an ordinary RGB/grey picture); TIFF otherwise.
    private static func tiffKind(_ data: Data) -> FileKind? {
        guard let reader = try? TIFFTagReader(data), let ifd0 = try? reader.mainDirectories(limit: 1).first else { return .tiff }
        if ifd0.contains(50706) { return .dng }
        let directories = [ifd0] + reader.subDirectories(of: ifd0)
        if directories.contains(where: { [32803, 34892].contains($0.integer(262) ?? 0) }) { return .cameraRaw }
        let plain = [0, 1, 2, 3, 5, 6, 8].contains(ifd0.integer(262) ?? -1)
        if !plain, ifd0.string(271) != nil { return .cameraRaw }
        if ifd0.integers(330) != nil, ifd0.string(271) != nil, ifd0.integer(254) == 1 { return .cameraRaw }
        return .tiff
    }
}
