import Testing
@testable import CaptureCore

@Suite struct RobustMergeTests {
    @Test func ruleAcceptsNoiseAndRejectsLargeDifferences() {
        #expect(RobustMerge.weight(difference: 1, noise: 1) == 1)
        #expect(RobustMerge.weight(difference: 2.5, noise: 1) == 1)
        #expect(abs(RobustMerge.weight(difference: 3.75, noise: 1) - 0.5) < 1e-6)
        #expect(RobustMerge.weight(difference: 5, noise: 1) == 0)
        #expect(RobustMerge.weight(difference: 40, noise: 2) == 0)
        #expect(RobustMerge.weight(difference: .nan, noise: 1) == 0)
        #expect(RobustMerge.weight(difference: 0, noise: 0) == 1)
    }

    @Test func aRejectedTileRejectsItsNeighbours() {
        var differences = [Float](repeating: 1, count: 25)
        differences[12] = 10  // centre of 5 × 5
        let grid = RobustMerge.weights(differences: differences, noise: Array(repeating: 1, count: 25), tileSize: 8, columns: 5, rows: 5)
        for r in 0..<5 {
            for c in 0..<5 {
                #expect(grid[c, r] == ((1...3).contains(r) && (1...3).contains(c) ? 0 : 1))
            }
        }
    }

    @Test func tileGridInterpolatesBetweenCentres() {
        let grid = TileGrid(tileSize: 10, columns: 2, rows: 1, values: [0, 1])
        #expect(grid.value(x: 4.5, y: 3) == 0)        // centre of tile 0
        #expect(grid.value(x: 14.5, y: 3) == 1)       // centre of tile 1
        #expect(abs(grid.value(x: 9.5, y: 3) - 0.5) < 1e-6)
        #expect(grid.value(x: 0, y: 0) == 0 && grid.value(x: 19, y: 9) == 1)  // clamped beyond the centres
        var row = [Float](repeating: -1, count: 20)
        row.withUnsafeMutableBufferPointer { grid.fillRow(5, width: 20, into: $0.baseAddress!) }
        for x in 0..<20 { #expect(abs(row[x] - grid.value(x: Double(x), y: 5)) < 1e-6) }
    }

    /// The fixed-point row (values × 256, stepped per run) stays within one unit of the Float row × 256.
    @Test func tileGridFillsFixedPointRowsWithinAUnit() {
        var random = RandomSource(seed: 3)
        let grid = TileGrid(tileSize: 64, columns: 5, rows: 4,
                            values: (0..<20).map { _ in random.nextUniform() * 40 - 20 })
        let width = 300
        var floats = [Float](repeating: 0, count: width), fixed = [Int32](repeating: 0, count: width)
        var worst: Float = 0
        for y in 0..<256 {
            floats.withUnsafeMutableBufferPointer { grid.fillRow(y, width: width, into: $0.baseAddress!) }
            fixed.withUnsafeMutableBufferPointer { grid.fillRow(y, width: width, scale: 256, into: $0.baseAddress!) }
            for x in 0..<width { worst = max(worst, abs(Float(fixed[x]) - floats[x] * 256)) }
        }
        #expect(worst <= 1, "largest difference \(worst) / 256")
    }
}
