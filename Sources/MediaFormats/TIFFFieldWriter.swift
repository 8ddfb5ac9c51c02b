import CTIFF
import Foundation

/// Sets libtiff fields through the non-variadic shims and remembers the first tag libtiff refused,
/// so a writer can set a whole directory and check once.
struct TIFFFieldWriter {
    let tif: OpaquePointer
    private(set) var refusedTag: Int32?

    init(_ tif: OpaquePointer) { self.tif = tif }

    private mutating func check(_ tag: Int32, _ result: Int32) {
        if result != 1, refusedTag == nil { refusedTag = tag }
    }

    mutating func u16(_ tag: Int32, _ value: UInt16?) {
        guard let value else { return }
        check(tag, opencapture_tiff_set_u16(tif, ttag_t(tag), value))
    }

    mutating func u32(_ tag: Int32, _ value: UInt32) { check(tag, opencapture_tiff_set_u32(tif, ttag_t(tag), value)) }

    mutating func u64(_ tag: Int32, _ value: UInt64) { check(tag, opencapture_tiff_set_u64(tif, ttag_t(tag), value)) }

    /// RATIONAL, SRATIONAL, FLOAT or DOUBLE single values (libtiff takes a double for all of them).
    mutating func double(_ tag: Int32, _ value: Double?) {
        guard let value, value.isFinite else { return }
        check(tag, opencapture_tiff_set_double(tif, ttag_t(tag), value))
    }

    mutating func ascii(_ tag: Int32, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        check(tag, opencapture_tiff_set_ascii(tif, ttag_t(tag), value))
    }

    /// A fixed-count array (TIFF_SETGET_C0_*): libtiff knows the count.
    mutating func array<T>(_ tag: Int32, _ values: [T]) {
        check(tag, values.withUnsafeBytes { opencapture_tiff_set_array(tif, ttag_t(tag), $0.baseAddress) })
    }

    /// A counted array (TIFF_SETGET_C16_*); rational arrays are passed as `[Float]`.
    mutating func counted<T>(_ tag: Int32, _ values: [T]) {
        guard !values.isEmpty, values.count <= Int(UInt16.max) else { return }
        check(tag, values.withUnsafeBytes { opencapture_tiff_set_counted(tif, ttag_t(tag), UInt16(values.count), $0.baseAddress) })
    }

    /// Throws naming the first refused tag.
    func finish(_ what: String) throws {
        if let refusedTag { throw MediaFormatError.encoderFailed("libtiff refused tag \(refusedTag) in the \(what)") }
    }
}
