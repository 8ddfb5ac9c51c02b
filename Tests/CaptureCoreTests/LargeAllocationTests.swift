import Testing
@testable import CaptureCore

/// Whole-frame buffers advised huge pages hold what is written to them, at any size.
@Suite struct LargeAllocationTests {
    @Test(arguments: [1, 1000, 3 << 20])
    func allocatedMemoryHoldsItsValues(count: Int) {
        let p = LargeAllocation.allocate(UInt16.self, capacity: count)
        defer { LargeAllocation.deallocate(p) }
        for i in stride(from: 0, to: count, by: max(1, count / 997)) { p[i] = UInt16(truncatingIfNeeded: i &* 31) }
        for i in stride(from: 0, to: count, by: max(1, count / 997)) { #expect(p[i] == UInt16(truncatingIfNeeded: i &* 31)) }
        if count * 2 >= 2 << 20 { #expect(Int(bitPattern: p) % (2 << 20) == 0) }
    }

    @Test func rastersWrittenByTheirBandsHoldEveryValue() {
        let raster = Raster<UInt16>(width: 1500, height: 1000, channels: 3) { p in
            for i in 0..<4_500_000 { p[i] = UInt16(truncatingIfNeeded: i) }
        }
        #expect(raster.storage.count == 4_500_000)
        #expect(raster.storage.enumerated().allSatisfy { $0.element == UInt16(truncatingIfNeeded: $0.offset) })
    }
}
