import CaptureCore

/// Stage 3: white-balanced camera RGB → linear output RGB (camera → sRGB, then sRGB → target).
struct ColorMatrixStage {
    private let m: [Float]
    let isIdentity: Bool

    init(cameraToSRGB: Matrix3, colorSpace: ColorSpace) {
        let full = colorSpace == .sRGB ? cameraToSRGB : colorSpace.conversion(from: .sRGB) * cameraToSRGB
        m = full.m.map { Float($0) }
        isIdentity = full == .identity
    }

    /// The 3×3 matrix as Floats, row-major.
    var matrix: [Float] { m }

    /// Transforms planes 0…2 of `band.rows` in place.
    func run(_ band: ISPBand) {
        guard !isIdentity else { return }
        let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
        for y in band.rows {
            let r = band.row(0, y), g = band.row(1, y), b = band.row(2, y)
            for x in 0..<band.width {
                let rv = r[x], gv = g[x], bv = b[x]
                r[x] = m0 * rv + m1 * gv + m2 * bv
                g[x] = m3 * rv + m4 * gv + m5 * bv
                b[x] = m6 * rv + m7 * gv + m8 * bv
            }
        }
    }
}
