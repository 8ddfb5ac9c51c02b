/// A matrix of four columns and three rows of `Float` (simd's `simd_float4x3`), e.g. a camera's
/// extrinsic matrix [R | t].
///
/// Swift on Linux has no `simd` module, so this is a plain struct with the same shape and spelling
/// as Apple's: `columns` is a tuple of four `SIMD3<Float>` columns, `m[column][row]` and
/// `m[column, row]` read an element, and `m * v` multiplies by a `SIMD4<Float>`. Differences: it is
/// not the C type, has no `transpose` (there is no `simd_float3x4` here), and `init()` gives zeros.
public struct simd_float4x3: Equatable, Sendable, CustomDebugStringConvertible {
    /// The four columns.
    public var columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)

    /// All zeros.
    public init() { columns = (.zero, .zero, .zero, .zero) }

    /// A matrix with these columns.
    public init(columns: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)) { self.columns = columns }

    /// A matrix with these vectors as columns.
    public init(_ col0: SIMD3<Float>, _ col1: SIMD3<Float>, _ col2: SIMD3<Float>, _ col3: SIMD3<Float>) {
        columns = (col0, col1, col2, col3)
    }

    /// A matrix from an array of four columns (missing columns are zero, extra ones ignored).
    public init(_ columns: [SIMD3<Float>]) {
        func at(_ i: Int) -> SIMD3<Float> { i < columns.count ? columns[i] : .zero }
        self.columns = (at(0), at(1), at(2), at(3))
    }

    /// A matrix from an array of three rows of four values (missing rows are zero).
    public init(rows: [SIMD4<Float>]) {
        func at(_ i: Int) -> SIMD4<Float> { i < rows.count ? rows[i] : .zero }
        let r0 = at(0), r1 = at(1), r2 = at(2)
        columns = (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z), SIMD3(r0.w, r1.w, r2.w))
    }

    /// `scalar` on the main diagonal (the first three columns), zeros elsewhere.
    public init(_ scalar: Float) { self.init(diagonal: SIMD3(repeating: scalar)) }

    /// `diagonal` on the main diagonal (the first three columns), zeros elsewhere.
    public init(diagonal: SIMD3<Float>) {
        columns = (SIMD3(diagonal.x, 0, 0), SIMD3(0, diagonal.y, 0), SIMD3(0, 0, diagonal.z), .zero)
    }

    /// Column `column` (0…3); other indices trap, as Apple's do.
    public subscript(column: Int) -> SIMD3<Float> {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            case 3: return columns.3
            default: preconditionFailure("simd_float4x3 column index \(column) out of range 0...3")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            case 3: columns.3 = newValue
            default: preconditionFailure("simd_float4x3 column index \(column) out of range 0...3")
            }
        }
    }

    /// The element in `column`, `row`.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    public static func == (lhs: simd_float4x3, rhs: simd_float4x3) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1 && lhs.columns.2 == rhs.columns.2
            && lhs.columns.3 == rhs.columns.3
    }

    /// Matrix × column vector (a point in homogeneous coordinates for an extrinsic matrix).
    public static func * (lhs: simd_float4x3, rhs: SIMD4<Float>) -> SIMD3<Float> {
        lhs.columns.0 * rhs.x + lhs.columns.1 * rhs.y + lhs.columns.2 * rhs.z + lhs.columns.3 * rhs.w
    }

    /// Apple's format: `simd_float4x3([[c0], [c1], [c2], [c3]])`, column by column.
    public var debugDescription: String {
        func text(_ v: SIMD3<Float>) -> String { "[\(v.x), \(v.y), \(v.z)]" }
        return "simd_float4x3([\(text(columns.0)), \(text(columns.1)), \(text(columns.2)), \(text(columns.3))])"
    }
}

/// The C-level name of `simd_float4x3` (simd/matrix_types.h), as `AVCameraCalibrationData` spells it.
public typealias matrix_float4x3 = simd_float4x3
