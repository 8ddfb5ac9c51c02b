/// The TIFF 6.0 field types (plus type 13, IFD, from the TIFF technical notes) and their sizes:
/// the one table the TIFF/EXIF/DNG writers and readers share.
enum TIFFType: UInt16, CaseIterable {
    case byte = 1, ascii = 2, short = 3, long = 4, rational = 5, sbyte = 6, undefined = 7, sshort = 8
    case slong = 9, srational = 10, float = 11, double = 12, ifd = 13

    /// Bytes per value.
    var size: Int {
        switch self {
        case .byte, .ascii, .sbyte, .undefined: return 1
        case .short, .sshort: return 2
        case .long, .slong, .float, .ifd: return 4
        case .rational, .srational, .double: return 8
        }
    }
}
