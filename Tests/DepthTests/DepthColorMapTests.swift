import CaptureCore
import Depth
import Testing

@Suite struct DepthColorMapTests {
    @Test func nearIsWarmFarIsCoolNaNIsBlack() {
        var values = Raster<Float>(width: 101, height: 1)
        for x in 0...100 { values[x, 0] = Float(x) }
        values[50, 0] = .nan
        let disparity = DepthColorMap.colorized(DepthMap(values: values, kind: .disparity, accuracy: .relative, isFiltered: false))
        // Disparity 90 is near: red dominates; 10 is far: blue dominates.
        #expect(disparity[90, 0, 0] > disparity[90, 0, 2] && disparity[10, 0, 2] > disparity[10, 0, 0])
        #expect(disparity[50, 0, 0] == 0 && disparity[50, 0, 1] == 0 && disparity[50, 0, 2] == 0)
        let depth = DepthColorMap.colorized(DepthMap(values: values, kind: .depth, accuracy: .absolute, isFiltered: false))
        // Depth 0 is nearest.
        #expect(depth[10, 0, 0] > depth[10, 0, 2] && depth[90, 0, 2] > depth[90, 0, 0])
        #expect(disparity.channels == 3 && disparity.size == values.size)
    }

    @Test func turboEnds() {
        let low = DepthColorMap.turbo(0.1), high = DepthColorMap.turbo(0.9), mid = DepthColorMap.turbo(0.5)
        #expect(low.2 > low.0 && high.0 > high.2 && mid.1 > 200)
        // Both ends are dark.
        let ends = [DepthColorMap.turbo(0), DepthColorMap.turbo(1)]
        #expect(ends.allSatisfy { Int($0.0) + Int($0.1) + Int($0.2) < 250 })
    }
}
