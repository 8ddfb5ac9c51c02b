/// One JPEG marker segment before the entropy-coded data: its marker byte and where its
/// payload (after the two length bytes) lies in the file.
public struct JPEGSegment: Sendable, Equatable {
    /// The marker's second byte: 0xE1 APP1, 0xE2 APP2, 0xC0 SOF0, 0xDA SOS, …
    public var marker: UInt8
    /// Offset of the 0xFF of the marker.
    public var offset: Int
    /// Payload range (after the length field) within the file.
    public var payload: Range<Int>
}
