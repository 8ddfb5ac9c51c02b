import CaptureCore
import Testing

@Suite struct DepthMapTests {
    @Test func convertsDisparityToDepthAsReciprocals() {
        let map = DepthMap(values: Raster(width: 4, height: 1, storage: [0.5, 2, .nan, 0]), kind: .disparity,
                           accuracy: .relative, isFiltered: false)
        let depth = map.converted(to: .depth)
        #expect(depth.kind == .depth)
        #expect(depth.values.storage[0] == 2 && depth.values.storage[1] == 0.5)
        #expect(depth.values.storage[2].isNaN && depth.values.storage[3] == .infinity)
        #expect(depth.converted(to: .disparity).values.storage[3] == 0)
        #expect(map.finiteRange == 0...2)
    }

    @Test func finiteRangeIsNilWithoutData() {
        let map = DepthMap(values: Raster(width: 2, height: 1, storage: [.nan, .nan]), kind: .depth, accuracy: .absolute,
                           isFiltered: false)
        #expect(map.finiteRange == nil)
    }
}
