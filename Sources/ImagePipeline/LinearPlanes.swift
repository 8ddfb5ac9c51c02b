import CaptureCore

/// Rows of linear camera RGB, planar, stored as 16-bit codes: what the ISP's black level and demosaic leave for its
/// lens correction (`LinearRowWindow`). Half the memory of Floats; a code is 1/65535 of the range
/// [`minimum`, `maximum`], finer than a 12-bit sensor's step at any gain this range is sized for. Values outside the
/// range are clamped. One worker's: not shared between threads.
final class LinearPlanes {
    let width: Int, height: Int
    let minimum: Float, step: Float
    private let storage: UnsafeMutablePointer<UInt16>

    /// Planes for values in [minimum, maximum].
    init(width: Int, height: Int, minimum: Float, maximum: Float) {
        self.width = width
        self.height = height
        self.minimum = minimum
        step = max(maximum - minimum, 1e-6) / 65535
        storage = LargeAllocation.allocate(UInt16.self, capacity: 3 * width * height)
    }

    deinit { LargeAllocation.deallocate(storage) }

    /// Plane `c` (rows `width` apart).
    @inline(__always)
    func plane(_ c: Int) -> UnsafeMutablePointer<UInt16> {
        storage + c * height * width
    }

    /// Row `y` of plane `c`.
    @inline(__always)
    func row(_ c: Int, _ y: Int) -> UnsafeMutablePointer<UInt16> {
        plane(c) + y * width
    }

    /// Stores `width` Floats as row `y` of plane `c` (rounded, clamped), eight at a time.
    func store(_ values: UnsafePointer<Float>, plane c: Int, row y: Int) {
        let out = row(c, y), inverse = 1 / step, offset = -minimum * inverse
        let low = SIMD8<Float>(repeating: 0), high = SIMD8<Float>(repeating: 65535)
        // Adding 2²³ rounds to the nearest integer and leaves it in the low mantissa bits: no trapping
        // Float-to-integer conversion, so the loop stays in vectors.
        let magic = SIMD8<Float>(repeating: 8_388_608)
        var x = 0
        while x + 8 <= width {
            let v = UnsafeRawPointer(values + x).loadUnaligned(as: SIMD8<Float>.self) * inverse + offset
            let clamped = v.replacing(with: low, where: v .< low).replacing(with: high, where: v .> high)
            let bits = unsafeBitCast(clamped + magic, to: SIMD8<UInt32>.self)
            UnsafeMutableRawPointer(out + x).storeBytes(of: SIMD8<UInt16>(truncatingIfNeeded: bits), as: SIMD8<UInt16>.self)
            x += 8
        }
        while x < width {
            out[x] = UInt16(min(max(values[x] * inverse + offset, 0), 65535).rounded())
            x += 1
        }
    }

    /// The Float a code stands for.
    @inline(__always)
    func value(_ code: UInt16) -> Float { Float(code) * step + minimum }
}
