/// A frame of a bracket and its reference brought to one exposure so they can be compared: the brighter
/// frame's grey levels are mapped into the darker frame's by histogram matching (robust to a small moving
/// object, needs no exposure values or response curve), and comparing in the darker frame's levels never
/// stretches quantisation. Clipping is one-sided: where the brighter frame is clipped white, or the darker
/// one crushed black, the true level is only bounded, so only a violation of the bound counts.
struct ExposurePair {
    /// True when the reference is the darker frame of the two.
    let referenceIsDarker: Bool
    /// Brighter frame's level → darker frame's level (fractional).
    let transfer: [Float]
    /// The brighter frame counts as clipped at or above this level, the darker as crushed at or below `crushed`.
    static let clipped = 250, crushed = 5

    init(reference: GreyImage, other: GreyImage) {
        let hr = Self.histogram(reference.pixels), ho = Self.histogram(other.pixels)
        let meanR = Self.mean(hr), meanO = Self.mean(ho)
        referenceIsDarker = meanR <= meanO
        transfer = referenceIsDarker ? Self.matching(from: ho, to: hr) : Self.matching(from: hr, to: ho)
    }

    /// (darker, brighter mapped to the darker's levels, both levels informative) for one pixel pair.
    @inline(__always)
    func levels(reference r: UInt8, other o: UInt8) -> (dark: Float, bright: Float, twoSided: Bool) {
        let (dark, bright) = referenceIsDarker ? (r, o) : (o, r)
        return (Float(dark), transfer[Int(bright)], Int(bright) < Self.clipped && Int(dark) > Self.crushed)
    }

    /// How far a pixel pair disagrees, in the darker frame's levels (0 where a one-sided bound holds). Where the
    /// reference itself is clipped or crushed the bound allows `looseBound` levels more: frames rendered with local
    /// tone mapping (a phone's, ours with highlight headroom) do not keep one global order of levels there, while
    /// something that moved in front of a blown window still breaks the bound by far more.
    @inline(__always)
    func difference(reference r: UInt8, other o: UInt8) -> Float {
        let (dark, bright, twoSided) = levels(reference: r, other: o)
        if twoSided { return abs(dark - bright) }
        let violation = max(0, bright - dark)
        return referenceIsDarker ? (Int(r) <= Self.crushed ? max(0, violation - Self.looseBound) : violation)
            : (Int(r) >= Self.clipped ? max(0, violation - Self.looseBound) : violation)
    }

    /// Levels a bound may be broken by where the reference is clipped or crushed (see `difference`).
    static let looseBound: Float = 48

    /// Whether a level of the reference (`isReference`) or of the other frame carries two-sided information.
    @inline(__always)
    func informative(_ level: UInt8, isReference: Bool) -> Bool {
        (isReference == referenceIsDarker) ? Int(level) > Self.crushed : Int(level) < Self.clipped
    }

    /// The darker frame's level for a level of the reference (`isReference`) or of the other frame.
    @inline(__always)
    func darkLevel(_ level: UInt8, isReference: Bool) -> Float {
        (isReference == referenceIsDarker) ? Float(level) : transfer[Int(level)]
    }

    static func histogram(_ pixels: [UInt8]) -> [Double] {
        var h = [Int](repeating: 0, count: 256)
        for v in pixels { h[Int(v)] += 1 }
        return h.map(Double.init)
    }

    static func mean(_ h: [Double]) -> Double {
        let n = h.reduce(0, +)
        return n > 0 ? h.enumerated().reduce(0) { $0 + Double($1.offset) * $1.element } / n : 0
    }

    /// Histogram matching: level v of `source` ↦ the level of `target` at the same cumulative fraction
    /// (the middle of v's share, the lower edge for 255 so a clipped level maps to where clipping starts).
    static func matching(from source: [Double], to target: [Double]) -> [Float] {
        let ns = max(1, source.reduce(0, +)), nt = max(1, target.reduce(0, +))
        var table = [Float](repeating: 0, count: 256)
        var below = 0.0
        var u = 0, targetBelow = 0.0
        for v in 0..<256 {
            let p = (below + (v == 255 ? 0 : 0.5 * source[v])) / ns * nt
            below += source[v]
            while u < 255 && targetBelow + target[u] <= p { targetBelow += target[u]; u += 1 }
            let inside = target[u] > 0 ? (p - targetBelow) / target[u] : 0.5
            table[v] = Float(Double(u) - 0.5 + min(max(inside, 0), 1))
        }
        return table.map { min(max($0, 0), 255) }
    }
}
