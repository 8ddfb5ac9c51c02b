import CaptureCore
import Depth
import Testing

@Suite struct DepthFilterTests {
    /// A depth edge at x = 40 (near 2 m on the left, far 5 m on the right) seen in a guide with the same edge.
    static func edge() -> (depth: Raster<Float>, guide: Raster<Float>) {
        var depth = Raster<Float>(width: 80, height: 60), guide = depth
        for y in 0..<60 { for x in 0..<80 {
            depth[x, y] = x < 40 ? 2 : 5
            guide[x, y] = (x < 40 ? 0.8 : 0.2) + Float((x * 13 + y * 7) % 5) * 0.01
        } }
        return (depth, guide)
    }

    @Test func fillsHolesAndKeepsTheEdge() throws {
        var (depth, guide) = Self.edge()
        // Holes: a block straddling the edge and a ragged band of occlusion next to it.
        for y in 20..<32 { for x in 34..<46 { depth[x, y] = .nan } }
        for y in 0..<60 where y % 3 != 0 { depth[41, y] = .nan; depth[42, y] = .nan }
        let out = try DepthFilter.filtered(depth, guide: guide)
        #expect(out.storage.allSatisfy { $0.isFinite })
        // Each row: the first column where the value is nearer the far side is 40 (±1).
        for y in 0..<60 {
            let crossing = (0..<80).first { out[$0, y] > 3.5 } ?? -1
            #expect(abs(crossing - 40) <= 1, "row \(y): edge at \(crossing)")
        }
        #expect(abs(out[36, 26] - 2) < 0.2 && abs(out[44, 26] - 5) < 0.2)
    }

    @Test func fillsALargeHoleFromItsSurroundings() throws {
        var depth = Raster<Float>(width: 50, height: 50, repeating: 3)
        for y in 5..<45 { for x in 5..<45 { depth[x, y] = .nan } }
        let out = try DepthFilter.filtered(depth, guide: Raster<Float>(width: 50, height: 50, repeating: 0.5))
        #expect(out.storage.allSatisfy { abs($0 - 3) < 1e-4 })
    }

    @Test func badInputsThrow() {
        let a = Raster<Float>(width: 4, height: 4, repeating: .nan)
        #expect(throws: DepthError.self) { try DepthFilter.filtered(a, guide: Raster<Float>(width: 5, height: 4)) }
        #expect(throws: DepthError.self) { try DepthFilter.filtered(a, guide: Raster<Float>(width: 4, height: 4)) }
    }
}
