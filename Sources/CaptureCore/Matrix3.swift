/// A 3×3 matrix of Doubles in row-major order, for colour transforms.
public struct Matrix3: Hashable, Sendable, Codable, CustomStringConvertible {
    public var m: [Double]

    public init(_ rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "Matrix3 needs 3×3 values")
        m = rows.flatMap { $0 }
    }

    public init(rowMajor values: [Double]) {
        precondition(values.count == 9, "Matrix3 needs 9 values")
        m = values
    }

    public static let identity = Matrix3(rowMajor: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    public static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 {
        Matrix3(rowMajor: [a, 0, 0, 0, b, 0, 0, 0, c])
    }

    public subscript(row: Int, column: Int) -> Double {
        get { m[row * 3 + column] }
        set { m[row * 3 + column] = newValue }
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[i * 3 + j] += a.m[i * 3 + k] * b.m[k * 3 + j] } } }
        return Matrix3(rowMajor: r)
    }

    public static func * (a: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.m[0] * v.x + a.m[1] * v.y + a.m[2] * v.z,
              a.m[3] * v.x + a.m[4] * v.y + a.m[5] * v.z,
              a.m[6] * v.x + a.m[7] * v.y + a.m[8] * v.z)
    }

    /// The transpose (for a rotation, its inverse).
    public var transposed: Matrix3 {
        Matrix3(rowMajor: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]])
    }

    public var determinant: Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }

    /// The inverse, or nil when the matrix is singular.
    public var inverse: Matrix3? {
        let d = determinant
        guard abs(d) > 1e-12 else { return nil }
        let c: [Double] = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Matrix3(rowMajor: c.map { $0 / d })
    }

    /// Scales each row so it sums to one (keeps white white).
    public var rowNormalized: Matrix3 {
        var r = m
        for i in 0..<3 {
            let s = r[i * 3] + r[i * 3 + 1] + r[i * 3 + 2]
            if s != 0 { for j in 0..<3 { r[i * 3 + j] /= s } }
        }
        return Matrix3(rowMajor: r)
    }

    public var description: String {
        (0..<3).map { i in (0..<3).map { String(format4: m[i * 3 + $0]) }.joined(separator: " ") }.joined(separator: "; ")
    }
}

extension String {
    fileprivate init(format4 value: Double) {
        self = String((value * 10_000).rounded() / 10_000)
    }
}
