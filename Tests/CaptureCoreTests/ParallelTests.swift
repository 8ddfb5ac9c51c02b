import OpenCaptureTestSupport
import Testing
@testable import CaptureCore

@Suite struct RowBandsTests {
    static let heights = Array(0...130) + [255, 256, 257, 1_000, 3_024, 4_033]
    static let bandHeights = Array(1...17) + [24, 32, 63, 64, 65, 128, 1_000, 5_000, Int.max]

    @Test func everyRowInExactlyOneBandInOrder() {
        for height in Self.heights {
            for bandHeight in Self.bandHeights {
                let bands = RowBands(height: height, bandHeight: bandHeight)
                // Concatenated in order, the bands are exactly 0..<height.
                #expect(bands.flatMap { Array($0) } == Array(0..<height), "height \(height) band \(bandHeight)")
                #expect(bands.count == (height == 0 ? 0 : (height - 1) / bandHeight + 1))
                #expect(bands.dropLast().allSatisfy { $0.count == bandHeight })
                #expect(bands.allSatisfy { !$0.isEmpty })
            }
        }
    }

    @Test func degenerateShapes() {
        #expect(RowBands(height: 0, bandHeight: 64).isEmpty)
        #expect(RowBands(height: -5, bandHeight: 64).isEmpty)
        #expect(Array(RowBands(height: 1, bandHeight: 64)) == [0..<1])
        #expect(Array(RowBands(height: 3, bandHeight: 0)) == [0..<1, 1..<2, 2..<3])
        #expect(Array(RowBands(height: 3, bandHeight: -4)) == [0..<1, 1..<2, 2..<3])
    }

    @Test func spreadingOverAtMostCountBands() {
        for height in 0...300 {
            for maxCount in [1, 2, 3, 7, 8, 64, 1_000] {
                let bands = RowBands(height: height, maxCount: maxCount)
                #expect(bands.count <= maxCount)
                #expect(bands.flatMap { Array($0) } == Array(0..<height))
                if height >= maxCount { #expect(bands.count >= (maxCount + 1) / 2) }
            }
        }
        #expect(RowBands(height: 10, maxCount: 0).count == 1)
    }
}

@Suite struct ParallelTests {
    /// Runs `forEachBandIndexed` and returns how often each row was visited, checking each index's rows.
    static func visits(height: Int, bandHeight: Int) -> [Int] {
        let counts = Locked([Int](repeating: 0, count: max(0, height)))
        let mismatches = Locked(0)
        let bands = RowBands(height: height, bandHeight: bandHeight)
        Parallel.forEachBandIndexed(height: height, bandHeight: bandHeight) { index, rows in
            if bands[index] != rows { mismatches.withLock { $0 += 1 } }
            counts.withLock { for y in rows { $0[y] += 1 } }
        }
        #expect(mismatches.wrappedValue == 0)
        return counts.withLock { $0 }
    }

    @Test func bandsCoverEveryRowExactlyOnce() {
        for height in [0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 127, 500, 3_024] {
            for bandHeight in [1, 2, 7, 16, 32, 64, 100, 4_096] {
                let counts = Self.visits(height: height, bandHeight: bandHeight)
                #expect(counts.allSatisfy { $0 == 1 }, "height \(height) band \(bandHeight)")
            }
        }
    }

    @Test func noBandsForEmptyHeights() {
        let calls = Locked(0)
        Parallel.forEachBand(height: 0) { _ in calls.withLock { $0 += 1 } }
        Parallel.forEachBand(height: -3) { _ in calls.withLock { $0 += 1 } }
        Parallel.forEachBandIndexed(height: 0, bandHeight: 1) { _, _ in calls.withLock { $0 += 1 } }
        #expect(calls.wrappedValue == 0)
    }

    @Test func forEachBandSeesTheSameBands() {
        let seen = Locked<[Range<Int>]>([])
        Parallel.forEachBand(height: 1_000, bandHeight: 48) { rows in seen.withLock { $0.append(rows) } }
        #expect(seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound } == Array(RowBands(height: 1_000, bandHeight: 48)))
    }

    @Test func mapKeepsIndexOrderAndRunsEachItemOnce() {
        for count in [0, 1, 2, 5, 64, 1_000] {
            let runs = Locked([Int](repeating: 0, count: count))
            let values = Parallel.map(count: count) { i in
                runs.withLock { $0[i] += 1 }
                return "item \(i * i)"
            }
            #expect(values == (0..<count).map { "item \($0 * $0)" })
            #expect(runs.withLock { $0 }.allSatisfy { $0 == 1 })
        }
    }

    struct ItemFailed: Error, Equatable { let index: Int }

    @Test func mapThrowsTheLowestIndexErrorAfterRunningEverything() {
        let ran = Locked(0)
        #expect(throws: ItemFailed(index: 3)) {
            _ = try Parallel.map(count: 40) { (i: Int) throws(ItemFailed) -> Int in
                ran.withLock { $0 += 1 }
                if i == 3 || i == 17 || i == 39 { throw ItemFailed(index: i) }
                return i
            }
        }
        #expect(ran.wrappedValue == 40)
    }

    @Test func coreCountIsPositive() {
        #expect(Parallel.coreCount >= 1)
    }
}
