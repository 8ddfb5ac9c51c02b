/// A matrix of three columns and three rows of `Float` (simd's `simd_float3x3`).
///
/// Swift on Linux has no `simd` module, so this is a plain struct with the same shape and spelling
/// as Apple's: `columns` is a tuple of three `SIMD3<Float>` columns, `m[column][row]` and
/// `m[column, row]` read an element, and `*` multiplies matrices and vectors. Differences: it is
/// not the C type (no `cmatrix`, no bridging to `matrix_float3x3` C functions such as
/// `simd_mul`), it offers only the members below, and `init()` gives zeros (Apple's is
/// "uninitialized memory", in practice zero).
public struct simd_float3x3: Equatable, Sendable, CustomDebugStringConvertible {
    /// The three columns.
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// All zeros.
    public init() { columns = (.zero, .zero, .zero) }

    /// A matrix with these columns.
    public init(columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) { self.columns = columns }

    /// A matrix with these vectors as columns.
    public init(_ col0: SIMD3<Float>, _ col1: SIMD3<Float>, _ col2: SIMD3<Float>) { columns = (col0, col1, col2) }

    /// A matrix from an array of three columns (missing columns are zero, extra ones ignored).
    public init(_ columns: [SIMD3<Float>]) {
        func at(_ i: Int) -> SIMD3<Float> { i < columns.count ? columns[i] : .zero }
        self.columns = (at(0), at(1), at(2))
    }

    /// A matrix from an array of three rows (missing rows are zero, extra ones ignored).
    public init(rows: [SIMD3<Float>]) {
        func at(_ i: Int) -> SIMD3<Float> { i < rows.count ? rows[i] : .zero }
        let r0 = at(0), r1 = at(1), r2 = at(2)
        columns = (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    /// `scalar` on the main diagonal, zeros elsewhere.
    public init(_ scalar: Float) { self.init(diagonal: SIMD3(repeating: scalar)) }

    /// `diagonal` on the main diagonal, zeros elsewhere.
    public init(diagonal: SIMD3<Float>) {
        columns = (SIMD3(diagonal.x, 0, 0), SIMD3(0, diagonal.y, 0), SIMD3(0, 0, diagonal.z))
    }

    /// Column `column` (0…2); other indices trap, as Apple's do.
    public subscript(column: Int) -> SIMD3<Float> {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            default: preconditionFailure("simd_float3x3 column index \(column) out of range 0...2")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            default: preconditionFailure("simd_float3x3 column index \(column) out of range 0...2")
            }
        }
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    /// The transpose (rows become columns).
    public var transpose: simd_float3x3 { simd_float3x3(rows: [columns.0, columns.1, columns.2]) }

    /// The determinant.
    public var determinant: Float {
        let (a, b, c) = columns
        return a.x * (b.y * c.z - c.y * b.z) - b.x * (a.y * c.z - c.y * a.z) + c.x * (a.y * b.z - b.y * a.z)
    }

    public static func == (lhs: simd_float3x3, rhs: simd_float3x3) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1 && lhs.columns.2 == rhs.columns.2
    }

    /// Matrix × column vector.
    public static func * (lhs: simd_float3x3, rhs: SIMD3<Float>) -> SIMD3<Float> {
        lhs.columns.0 * rhs.x + lhs.columns.1 * rhs.y + lhs.columns.2 * rhs.z
    }

    /// Matrix product.
    public static func * (lhs: simd_float3x3, rhs: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(lhs * rhs.columns.0, lhs * rhs.columns.1, lhs * rhs.columns.2)
    }

    /// Apple's format: `simd_float3x3([[c0], [c1], [c2]])`, column by column.
    public var debugDescription: String {
        func text(_ v: SIMD3<Float>) -> String { "[\(v.x), \(v.y), \(v.z)]" }
        return "simd_float3x3([\(text(columns.0)), \(text(columns.1)), \(text(columns.2))])"
    }
}

/// The C-level name of `simd_float3x3` (simd/matrix_types.h), as `AVCameraCalibrationData` spells it.
public typealias matrix_float3x3 = simd_float3x3

/// The 3×3 identity matrix (simd's `matrix_identity_float3x3`).
public let matrix_identity_float3x3 = simd_float3x3(diagonal: SIMD3(repeating: 1))
