import Foundation

/// One baseline JPEG made of stripes encoded apart (on several cores): each stripe is a JPEG of consecutive whole MCU
/// rows of the image, encoded with the same tables and a restart marker after every MCU row. A restart resets the
/// DC predictions and starts on a byte boundary, so the stripes' entropy-coded data joined with restart markers
/// between them, numbered on modulo 8, is exactly the scan one encoder with that restart interval writes.
enum JPEGStripes {
    /// MCU rows of stripe `index` of `count` over `mcuRows` (as even as whole rows allow).
    static func rows(stripe index: Int, of count: Int, mcuRows: Int) -> Range<Int> {
        (index * mcuRows / count)..<((index + 1) * mcuRows / count)
    }

    /// Joins `stripes` (the first with the file's headers and metadata, its frame header's height replaced by
    /// `height`), where stripe k starts at MCU row `firstRows[k]`. Throws a `MediaFormatError` when a stripe is not
    /// the baseline JPEG this expects.
    static func join(_ stripes: [Data], height: Int, firstRows: [Int]) throws -> Data {
        guard let first = stripes.first, stripes.count == firstRows.count else { throw MediaFormatError.encoderFailed("no stripes") }
        var out = [UInt8](first)
        let segments = try JPEGSegments.segments(in: out)
        guard let frame = segments.first(where: { $0.marker == 0xC0 }), frame.payload.count >= 5, endsWithEOI(out),
              height <= Int(UInt16.max) else {
            throw MediaFormatError.encoderFailed("a JPEG stripe is not a baseline image")
        }
        out[frame.payload.lowerBound + 1] = UInt8(height >> 8)
        out[frame.payload.lowerBound + 2] = UInt8(height & 0xFF)
        out.removeLast(2)
        out.reserveCapacity(stripes.reduce(0) { $0 + $1.count })
        for (stripe, firstRow) in zip(stripes.dropFirst(), firstRows.dropFirst()) {
            let bytes = [UInt8](stripe)
            guard let scan = try JPEGSegments.segments(in: bytes).last, scan.marker == 0xDA, endsWithEOI(bytes) else {
                throw MediaFormatError.encoderFailed("a JPEG stripe is not a baseline image")
            }
            // The marker after the previous stripe's last row, then this stripe's data with its markers renumbered.
            out += [0xFF, 0xD0 | UInt8((firstRow - 1) & 7)]
            var restarts = firstRow
            let start = out.count
            out += bytes[scan.payload.upperBound..<(bytes.count - 2)]
            out.withUnsafeMutableBufferPointer { data in
                var i = start
                while i + 1 < data.count {
                    // In entropy-coded data a 0xFF is followed by a stuffed 0x00 or a restart marker.
                    if data[i] == 0xFF, data[i + 1] & 0xF8 == 0xD0 {
                        data[i + 1] = 0xD0 | UInt8(restarts & 7)
                        restarts += 1
                        i += 2
                    } else {
                        i += 1
                    }
                }
            }
        }
        out += [0xFF, 0xD9]
        return Data(out)
    }

    private static func endsWithEOI(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
    }
}
