/// A radial resampling about a centre, per colour plane: output point p of plane c takes its value from
/// `center + (p − center) · ratio_c(r²)`, where r is p's distance from the centre over `normalisingRadius`.
/// Each plane's ratio is tabulated over r² in [0, `span`] (2048 steps, read linearly) from the function given at
/// construction; a plane whose ratio is 1 everywhere is copied.
///
/// The one mechanism behind lens distortion and lateral chromatic aberration: the renderer's undistortion of rays and
/// its colour fringes, the ISP's correction and the move of depth maps into a lens's geometry.
public struct RadialWarp: Sendable {
    /// The centre, pixels from the top-left corner (a pixel's centre is at + 0.5).
    public var center: SIMD2<Double>
    /// The radius unit, pixels.
    public let normalisingRadius: Double
    /// Per plane: the ratio over r², or empty for the identity.
    private let tables: [[Double]]
    /// Largest r² tabulated (beyond it the last entry holds): a corner is at 1.
    public static let span = 1.2
    private static let steps = 2048

    /// `ratio(plane, r)` for `planes` planes, r the normalised radius of the output point.
    public init(center: SIMD2<Double>, normalisingRadius: Double, planes: Int, ratio: (_ plane: Int, _ r: Double) -> Double) {
        self.center = center
        self.normalisingRadius = max(1e-9, normalisingRadius)
        tables = (0..<max(1, planes)).map { plane in
            let table = (0...Self.steps).map { i in ratio(plane, (Double(i) / Double(Self.steps) * Self.span).squareRoot()) }
            return table.allSatisfy { $0 == 1 } ? [] : table
        }
    }

    /// Whether every plane is the identity.
    public var isIdentity: Bool { tables.allSatisfy(\.isEmpty) }

    /// The ratio of plane `plane` at normalised squared radius `r2`.
    @inline(__always)
    public func ratio(plane: Int, r2: Double) -> Double {
        let table = tables[min(plane, tables.count - 1)]
        guard !table.isEmpty else { return 1 }
        let position = min(max(r2, 0) / Self.span, 1) * Double(Self.steps)
        let i = min(Int(position), Self.steps - 1)
        return table[i] + (table[i + 1] - table[i]) * (position - Double(i))
    }

    /// Where output point `p` of plane `plane` takes its value from.
    @inline(__always)
    public func sourcePoint(of p: SIMD2<Double>, plane: Int) -> SIMD2<Double> {
        let d = p - center
        return center + d * ratio(plane: plane, r2: (d * d).sum() / (normalisingRadius * normalisingRadius))
    }

    /// `image` (one plane per channel, or one plane for all) resampled bilinearly, clamped to the image; with
    /// `nanAware`, a sample next to a NaN takes its nearest neighbour (so missing depth stays missing, not spread).
    public func apply(_ image: Raster<Float>, nanAware: Bool = false) -> Raster<Float> {
        resample(image, nanAware: nanAware) { $0 }
    }

    /// The same for bytes (rounded).
    public func apply(_ image: Raster<UInt8>) -> Raster<UInt8> {
        resample(image, nanAware: false) { UInt8(max(0, min(255, $0 + 0.5))) }
    }

    private func resample<Element: WarpSample>(_ image: Raster<Element>, nanAware: Bool,
                                               quantise: (Float) -> Element) -> Raster<Element> {
        guard !isIdentity, image.width > 0, image.height > 0 else { return image }
        let w = image.width, h = image.height, c = image.channels
        let scale = 1 / (normalisingRadius * normalisingRadius), centre = center
        let planes = (0..<c).map { tables[min($0, tables.count - 1)].isEmpty ? -1 : $0 }
        var out = image
        image.storage.withUnsafeBufferPointer { source in
            out.storage.withUnsafeMutableBufferPointer { destination in
                nonisolated(unsafe) let src = source.baseAddress!, dst = destination.baseAddress!
                Parallel.forEachBand(height: h, bandHeight: 16) { rows in
                    for y in rows {
                        let dy = Double(y) + 0.5 - centre.y
                        for x in 0..<w {
                            let dx = Double(x) + 0.5 - centre.x
                            let r2 = (dx * dx + dy * dy) * scale
                            for channel in 0..<c where planes[channel] >= 0 {
                                let f = ratio(plane: channel, r2: r2)
                                let v = Self.bilinear(src, w, h, channels: c, channel: channel,
                                                      x: centre.x + dx * f - 0.5, y: centre.y + dy * f - 0.5, nanAware: nanAware)
                                dst[(y * w + x) * c + channel] = quantise(v)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Bilinear read of `channel` at continuous sample position (x, y) (sample centres at integers), clamped.
    @inline(__always)
    private static func bilinear<Element: WarpSample>(_ src: UnsafePointer<Element>, _ w: Int, _ h: Int, channels c: Int,
                                                      channel: Int, x: Double, y: Double, nanAware: Bool) -> Float {
        let cx = min(max(x, 0), Double(w - 1)), cy = min(max(y, 0), Double(h - 1))
        let x0 = min(Int(cx), w - 1), y0 = min(Int(cy), h - 1)
        let x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1)
        let fx = Float(cx - Double(x0)), fy = Float(cy - Double(y0))
        let a = src[(y0 * w + x0) * c + channel].floatValue, b = src[(y0 * w + x1) * c + channel].floatValue
        let d = src[(y1 * w + x0) * c + channel].floatValue, e = src[(y1 * w + x1) * c + channel].floatValue
        if nanAware, a.isNaN || b.isNaN || d.isNaN || e.isNaN {
            let nx = fx < 0.5 ? x0 : x1, ny = fy < 0.5 ? y0 : y1
            return src[(ny * w + nx) * c + channel].floatValue
        }
        let top = a + (b - a) * fx, bottom = d + (e - d) * fx
        return top + (bottom - top) * fy
    }
}

/// Sample types the warp reads: bytes and Floats, as Float.
protocol WarpSample: BitwiseCopyable, Sendable {
    var floatValue: Float { get }
}

extension UInt8: WarpSample {
    @inline(__always) var floatValue: Float { Float(self) }
}

extension Float: WarpSample {
    @inline(__always) var floatValue: Float { self }
}
