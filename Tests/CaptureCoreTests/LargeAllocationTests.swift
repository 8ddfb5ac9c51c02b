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

    @Test(arguments: [0, 5, 2_000_000])
    func arraysAreFilledWithTheirValue(count: Int) {
        let array = LargeAllocation.array(repeating: Float(0.25), count: count)
        #expect(array.count == count)
        #expect(array.allSatisfy { $0 == 0.25 })
        let raster = Raster<UInt8>(width: 2000, height: 1500, channels: 3, repeating: 7)
        #expect(raster.storage.count == 9_000_000 && raster.storage.allSatisfy { $0 == 7 })
    }
}
