/// The fields of a movie header (`mvhd`) box that OpenCapture reads: version 0 (32-bit times and duration) or 1 (64-bit).
struct MovieHeaderBox {
    /// Seconds since 1904-01-01 (0: none given).
    let creationTime: UInt64
    let timescale: UInt32
    /// In `timescale` units.
    let duration: UInt64
    /// The next-track-ID field's offset in the file, when the box reaches it (after rate, volume, matrix and
    /// pre-defined fields).
    let nextTrackIDOffset: Int?

    /// Reads `box` (an `mvhd`); throws `.invalidImage` when it is too short for its times, timescale and duration.
    init(_ reader: ByteReader, _ box: BMFFReader.Box) throws {
        guard box.body.count >= 24 else { throw MediaFormatError.invalidImage("short mvhd box") }
        let v1 = reader.bytes[box.body.lowerBound] == 1
        let base = box.body.lowerBound + 4
        let timescaleAt = base + (v1 ? 16 : 8), nextAt = base + (v1 ? 104 : 92)
        creationTime = v1 ? try reader.u64(base) : UInt64(try reader.u32(base))
        timescale = try reader.u32(timescaleAt)
        duration = v1 ? try reader.u64(timescaleAt + 4) : UInt64(try reader.u32(timescaleAt + 4))
        nextTrackIDOffset = nextAt + 4 <= box.body.upperBound ? nextAt : nil
    }
}
