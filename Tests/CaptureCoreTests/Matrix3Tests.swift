import Testing
@testable import CaptureCore

@Suite struct Matrix3Tests {
    static func isIdentity(_ m: Matrix3, tolerance: Double = 1e-12) -> Bool {
        (0..<3).allSatisfy { i in (0..<3).allSatisfy { j in abs(m[i, j] - (i == j ? 1 : 0)) < tolerance } }
    }

    @Test func inverseTimesMatrixIsIdentity() throws {
        var rng = RandomSource(seed: 3)
        var tested = 0
        for _ in 0..<500 {
            let m = Matrix3(rowMajor: (0..<9).map { _ in rng.nextUniformDouble() * 20 - 10 })
            guard abs(m.determinant) > 1e-3 else { continue }
            let inverse = try #require(m.inverse)
            let tolerance = 1e-9 / min(1, abs(m.determinant))
            #expect(Self.isIdentity(m * inverse, tolerance: tolerance))
            #expect(Self.isIdentity(inverse * m, tolerance: tolerance))
            tested += 1
        }
        #expect(tested > 450)
        for space in ColorSpace.allCases {
            #expect(Self.isIdentity(space.toXYZ * space.fromXYZ, tolerance: 1e-12))
        }
    }

    @Test func knownInverseAndDeterminant() throws {
        let m = Matrix3([[2, 0, 0], [0, 4, 0], [1, 0, 1]])
        #expect(m.determinant == 8)
        let inverse = try #require(m.inverse)
        #expect(inverse == Matrix3([[0.5, 0, 0], [0, 0.25, 0], [-0.5, 0, 1]]))
        #expect(Matrix3.identity.inverse == .identity)
        #expect(Matrix3.diagonal(2, 3, 4).determinant == 24)
    }

    @Test func transposeSwapsRowsAndColumnsAndInvertsARotation() {
        let m = Matrix3([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
        #expect(m.transposed == Matrix3([[1, 4, 7], [2, 5, 8], [3, 6, 9]]))
        let rotation = Matrix3([[0, -1, 0], [1, 0, 0], [0, 0, 1]])
        #expect(rotation * rotation.transposed == .identity)
    }

    @Test func singularMatricesHaveNoInverse() {
        #expect(Matrix3(rowMajor: [Double](repeating: 0, count: 9)).inverse == nil)
        #expect(Matrix3([[1, 2, 3], [2, 4, 6], [0, 1, 1]]).inverse == nil)          // rows 1 and 2 parallel
        #expect(Matrix3([[1, 2, 3], [4, 5, 6], [7, 8, 9]]).inverse == nil)          // rank 2
        #expect(Matrix3([[1, 0, 0], [0, 1, 0], [1, 1, 0]]).inverse == nil)          // zero column
        #expect(Matrix3.diagonal(1, 1e-14, 1).inverse == nil)                       // below the 1e-12 threshold
    }

    @Test func productsAndVectors() {
        let a = Matrix3([[1, 2, 3], [4, 5, 6], [7, 8, 10]]), b = Matrix3([[0, 1, 0], [1, 0, 0], [0, 0, 2]])
        #expect(a * b == Matrix3([[2, 1, 6], [5, 4, 12], [8, 7, 20]]))
        #expect(a * Matrix3.identity == a && Matrix3.identity * a == a)
        let v = SIMD3<Double>(1, -1, 2)
        #expect(a * v == SIMD3(5, 11, 19))
        #expect((a * b) * v == a * (b * v))
        var c = a
        c[1, 2] = -1
        #expect(c.m[5] == -1 && c[1, 2] == -1)
    }

    @Test func rowNormalizedKeepsWhite() {
        let m = Matrix3([[2, 1, 1], [0, 3, 1], [0, 0, 0]]).rowNormalized
        #expect(m[0, 0] == 0.5 && m[0, 1] == 0.25 && m[1, 1] == 0.75)
        #expect(m[2, 0] == 0 && m[2, 1] == 0 && m[2, 2] == 0)   // a zero row stays zero
        let white = m * SIMD3<Double>(1, 1, 1)
        #expect(white.x == 1 && white.y == 1)
    }

    @Test func descriptionRoundsToFourPlaces() {
        #expect(Matrix3.diagonal(1, 0.123456, -2).description == "1.0 0.0 0.0; 0.0 0.1235 0.0; 0.0 0.0 -2.0")
    }
}
