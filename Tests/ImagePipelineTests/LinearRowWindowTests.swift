import Testing
@testable import ImagePipeline

/// `LinearRowWindow`: the rows each band needs are present at `base`-relative rows, filled once, in chunks, while the
/// window slides down the frame.
@Suite struct LinearRowWindowTests {
    /// Row y of every plane holds the value y + c / 4 (exact in 16-bit codes over 0…256).
    static func fill(_ window: LinearRowWindow, rows: Range<Int>, width: Int, log: inout [Range<Int>]) {
        log.append(rows)
        for y in rows {
            for c in 0..<3 {
                let values = [Float](repeating: Float(y) + Float(c) / 4, count: width)
                values.withUnsafeBufferPointer { window.store($0.baseAddress!, plane: c, row: y) }
            }
        }
    }

    static func value(_ window: LinearRowWindow, plane c: Int, imageRow y: Int, x: Int) -> Float {
        window.planes.value(window.planes.row(c, y - window.base)[x])
    }

    @Test func bandsFindTheirRowsAndEachRowIsDemosaicedOnce() {
        let width = 5, height = 200
        let window = LinearRowWindow(width: width, imageHeight: height, capacity: 40, minimum: 0, maximum: 256)
        var log: [Range<Int>] = []
        // Needs that move down the frame by 10 rows a band, each 20 rows tall.
        for start in stride(from: 0, to: 180, by: 10) {
            let needed = start...(start + 19)
            window.cover(needed, chunk: 16) { Self.fill(window, rows: $0, width: width, log: &log) }
            #expect(window.base <= needed.lowerBound && window.base + window.count > needed.upperBound)
            for y in [needed.lowerBound, needed.upperBound] {
                for c in 0..<3 {
                    #expect(abs(Self.value(window, plane: c, imageRow: y, x: width - 1) - (Float(y) + Float(c) / 4)) < 0.01,
                            "row \(y) plane \(c)")
                }
            }
        }
        // Consecutive chunks of 16 rows, none twice, up to the frame's end.
        #expect(log.first == 0..<16)
        #expect(zip(log, log.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(log.allSatisfy { $0.count == 16 || $0.upperBound == height })
    }

    @Test func aBandAboveTheWindowStartsItAgain() {
        let width = 3
        let window = LinearRowWindow(width: width, imageHeight: 100, capacity: 30, minimum: 0, maximum: 256)
        var log: [Range<Int>] = []
        window.cover(50...59, chunk: 8) { Self.fill(window, rows: $0, width: width, log: &log) }
        window.cover(10...14, chunk: 8) { Self.fill(window, rows: $0, width: width, log: &log) }
        #expect(log == [50..<58, 58..<66, 10..<18])
        #expect(window.base == 10 && abs(Self.value(window, plane: 2, imageRow: 14, x: 0) - 14.5) < 0.01)
    }
}
