import CaptureCore

/// A 4096-entry standard-normal quantile table (16 KB, stays in L1 in the noise kernel, unlike the 256 KB
/// `GaussianTable`), rescaled to unit variance; indexed by 12 random bits.
enum SmallGaussianTable {
    static let values: [Float] = {
        let n = 4096
        let q = (0..<n).map { GaussianTable.inverseNormalCDF((Double($0) + 0.5) / Double(n)) }
        let sigma = (q.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
        return q.map { Float($0 / sigma) }
    }()
}
