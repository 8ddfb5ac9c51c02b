/// The order of bytes in a multi-byte integer: TIFF chooses per file ("II"/"MM"); JPEG, PNG and
/// ISO media (HEIF) are big-endian.
public enum ByteOrder: Sendable, Equatable {
    case bigEndian
    case littleEndian
}
