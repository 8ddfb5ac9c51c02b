import Foundation

/// Ray caster and materials of `SimulatedScene`.
struct SceneRenderer: Sendable {
    let lighting: SceneLighting
    let interior: Double
    let sky: Double
    let outside: Double

    init(scene: SimulatedScene) {
        lighting = scene.lighting
        interior = scene.lighting.interiorIlluminance
        sky = scene.lighting.skyLuminance
        outside = scene.lighting.outsideIlluminance
    }

    enum Surface {
        case backWall, frontWall, sideWall, floor, ceiling, nearBox, sofa, board, ledge, ball, head, torso
        case backHead, backNeck, backShirt, backLegs

        /// Part of a person (the front camera's or the back cameras').
        var isPerson: Bool {
            switch self {
            case .head, .torso, .backHead, .backNeck, .backShirt, .backLegs: return true
            default: return false
            }
        }
    }

    /// The nearest surface along a ray: ray parameter, what it is, and its normal facing the ray.
    struct Hit {
        var t: Double
        var surface: Surface
        var normal: SIMD3<Double>
    }

    @inline(__always) static var lumaWeights: SIMD3<Double> { SIMD3(0.2126729, 0.7151522, 0.0721750) }

    /// Whether the ray from `origin` along `direction` first meets a person.
    func hitsPerson(origin o: SIMD3<Double>, direction d: SIMD3<Double>) -> Bool {
        hit(origin: o, direction: d).surface.isPerson
    }

    /// Intersects one ray with the room and everything in it.
    func hit(origin o: SIMD3<Double>, direction d: SIMD3<Double>) -> Hit {
        let inv = SIMD3<Double>(1 / d.x, 1 / d.y, 1 / d.z)
        // Room: exit distance through the inside of the box.
        let room = SceneLayout.room
        let tx = ((inv.x > 0 ? room.max.x : room.min.x) - o.x) * inv.x
        let ty = ((inv.y > 0 ? room.max.y : room.min.y) - o.y) * inv.y
        let tz = ((inv.z > 0 ? room.max.z : room.min.z) - o.z) * inv.z
        var h = Hit(t: tx, surface: .sideWall, normal: SIMD3(d.x > 0 ? -1 : 1, 0, 0))
        if ty < h.t { h = Hit(t: ty, surface: d.y > 0 ? .ceiling : .floor, normal: SIMD3(0, d.y > 0 ? -1 : 1, 0)) }
        if tz < h.t { h = Hit(t: tz, surface: d.z > 0 ? .backWall : .frontWall, normal: SIMD3(0, 0, d.z > 0 ? -1 : 1)) }

        if d.z > 0 {
            SceneRenderer.box(SceneLayout.nearBoxMin, SceneLayout.nearBoxMax, .nearBox, o, d, inv, &h)
            SceneRenderer.box(SceneLayout.board.min, SceneLayout.board.max, .board, o, d, inv, &h)
            // The ledge only for rays passing under the board's front edge (most rays skip its slab test).
            let ledge = SceneLayout.ledge
            if d.y < 0, o.y + d.y * (ledge.max.z - o.z) * inv.z <= ledge.max.y {
                SceneRenderer.box(ledge.min, ledge.max, .ledge, o, d, inv, &h)
            }
            SceneRenderer.box(SceneLayout.sofaMin, SceneLayout.sofaMax, .sofa, o, d, inv, &h)
            SceneRenderer.box(SceneLayout.sofaBackMin, SceneLayout.sofaBackMax, .sofa, o, d, inv, &h)
            SceneRenderer.sphere(SceneLayout.ballCenter, SceneLayout.ballRadius, .ball, o, d, &h)
            // The back person, behind one bounding-box test (skipped when something nearer than it was hit).
            let bounds = SceneLayout.backPersonBounds
            if o.z + d.z * h.t > bounds.min.z, SceneRenderer.slab(bounds.min, bounds.max, o, inv).enter < h.t {
                SceneRenderer.backPerson(o, d, &h)
            }
        } else {
            SceneRenderer.box(SceneLayout.torsoMin, SceneLayout.torsoMax, .torso, o, d, inv, &h)
            SceneRenderer.sphere(SceneLayout.headCenter, SceneLayout.headRadius, .head, o, d, &h)
        }
        return h
    }

    @inline(__always)
    static func box(_ mn: SIMD3<Double>, _ mx: SIMD3<Double>, _ s: Surface, _ o: SIMD3<Double>, _ d: SIMD3<Double>,
                    _ inv: SIMD3<Double>, _ h: inout Hit) {
        let hit = slab(mn, mx, o, inv)
        guard hit.enter > 1e-6, hit.enter < h.t else { return }
        let normal: SIMD3<Double>
        switch hit.axis {
        case 0: normal = SIMD3(d.x > 0 ? -1 : 1, 0, 0)
        case 1: normal = SIMD3(0, d.y > 0 ? -1 : 1, 0)
        default: normal = SIMD3(0, 0, d.z > 0 ? -1 : 1)
        }
        h = Hit(t: hit.enter, surface: s, normal: normal)
    }

    @inline(__always)
    static func sphere(_ c: SIMD3<Double>, _ r: Double, _ s: Surface, _ o: SIMD3<Double>, _ d: SIMD3<Double>, _ h: inout Hit) {
        let root = sphereHit(c, r, o, d)
        guard root > 1e-6, root < h.t else { return }
        h = Hit(t: root, surface: s, normal: (o + d * root - c) / r)
    }

    /// The back person's parts (only for rays that enter their bounds).
    static func backPerson(_ o: SIMD3<Double>, _ d: SIMD3<Double>, _ h: inout Hit) {
        @inline(__always) func keep(_ hit: (t: Double, normal: SIMD3<Double>), _ s: Surface) {
            if hit.t > 1e-6, hit.t < h.t { h = Hit(t: hit.t, surface: s, normal: hit.normal) }
        }
        let axis = SceneLayout.backBodyAxis
        sphere(SceneLayout.backHeadCenter, SceneLayout.backHeadRadius, .backHead, o, d, &h)
        keep(verticalCylinderHit(axis: axis, semiAxes: SIMD2(repeating: SceneLayout.backNeckRadius),
                                 bottom: SceneLayout.backNeckBottom, top: SceneLayout.backNeckTop, o, d), .backNeck)
        keep(capsuleXHit(center: SIMD3(axis.x, SceneLayout.backShoulderY, axis.y), halfLength: SceneLayout.backShoulderHalfLength,
                         radius: SceneLayout.backShoulderRadius, o, d), .backShirt)
        keep(verticalCylinderHit(axis: axis, semiAxes: SceneLayout.backTorsoSemiAxes, bottom: SceneLayout.backTorsoBottom,
                                 top: SceneLayout.backShoulderY, o, d), .backShirt)
        let leg = SIMD2<Double>(repeating: SceneLayout.backLegRadius), offset = SIMD2(SceneLayout.backLegOffset, 0)
        keep(verticalCylinderHit(axis: axis - offset, semiAxes: leg, bottom: SceneLayout.room.min.y,
                                 top: SceneLayout.backTorsoBottom, o, d), .backLegs)
        keep(verticalCylinderHit(axis: axis + offset, semiAxes: leg, bottom: SceneLayout.room.min.y,
                                 top: SceneLayout.backTorsoBottom, o, d), .backLegs)
    }

    /// Traces one ray from `origin` along `direction` (need not be unit length).
    func trace(origin o: SIMD3<Double>, direction d: SIMD3<Double>) -> SceneSample {
        let h = hit(origin: o, direction: d)
        let t = h.t, surface = h.surface, normal = h.normal
        let p = o + d * t
        let dLen = (d * d).sum().squareRoot()
        let distance = t * dLen
        var albedo: SIMD3<Double>
        switch surface {
        case .backWall:
            if let emissive = windowRadiance(p: p, d: d) {
                return SceneSample(radiance: emissive, flashLuminancePerCandela: 0,
                                   distance: max(distance, SceneLayout.outsideDepth))
            }
            albedo = backWallAlbedo(p)
        case .frontWall: albedo = frontWallAlbedo(p)
        case .sideWall: albedo = plaster(p.z, p.y, SIMD3(0.55, 0.52, 0.46))
        case .floor: albedo = floorAlbedo(p)
        case .ceiling: albedo = SIMD3(repeating: 0.8)
        case .nearBox: albedo = wood(normal.z != 0 ? p.x : p.z, p.y, SIMD3(0.50, 0.32, 0.17), seed: 7)
        case .sofa: albedo = fabric(normal.z != 0 ? p.x : p.z, p.y, SIMD3(0.45, 0.06, 0.05), pitch: 0.0016)
        case .board: albedo = normal.z < 0 ? boardAlbedo(p) : SIMD3(repeating: 0.3)
        case .ledge: albedo = wood(normal.z != 0 ? p.x : p.z, normal.y != 0 ? p.z : p.y, SIMD3(0.42, 0.28, 0.15), seed: 90)
        case .ball: albedo = SIMD3(0.75, 0.55, 0.02) * (0.92 + 0.08 * sin(40 * atan2(p.x - SceneLayout.ballCenter.x, p.z - SceneLayout.ballCenter.z)))
        case .head: albedo = headAlbedo(p)
        case .torso: albedo = fabric(normal.z != 0 ? p.x : p.z, p.y, SIMD3(0.06, 0.14, 0.38), pitch: 0.002)
        case .backHead: albedo = backHeadAlbedo(p)
        case .backNeck: albedo = SceneRenderer.backSkin * (0.97 + 0.06 * SceneRenderer.noise(p.x * 300, p.y * 300, seed: 81))
        // A beige knit close to the wall plaster behind it, and dark red trousers close to the sofa's fabric.
        case .backShirt: albedo = fabric(p.x + p.z, p.y, SIMD3(0.55, 0.50, 0.42), pitch: 0.003)
        case .backLegs: albedo = fabric(p.x + p.z, p.y, SIMD3(0.32, 0.07, 0.06), pitch: 0.0018)
        }
        // Ambient: mostly diffuse light from above; up-facing surfaces get a little more.
        let shading = 1 + 0.2 * normal.y
        let ambient = albedo * (interior * shading / Double.pi)
        // Flash at the ray origin: irradiance I·cosθ/d².
        let cosTheta = abs((normal * d).sum()) / dLen
        let luma = (albedo * SceneRenderer.lumaWeights).sum()
        let flash = luma * cosTheta / (Double.pi * distance * distance)
        return SceneSample(radiance: ambient, flashLuminancePerCandela: flash, distance: distance)
    }

    /// Entry distance of a ray into an axis-aligned box (infinity when missed) and the axis of the entry face.
    @inline(__always)
    static func slab(_ mn: SIMD3<Double>, _ mx: SIMD3<Double>, _ o: SIMD3<Double>, _ inv: SIMD3<Double>) -> (enter: Double, axis: Int) {
        let ax = (mn.x - o.x) * inv.x, bx = (mx.x - o.x) * inv.x
        let ay = (mn.y - o.y) * inv.y, by = (mx.y - o.y) * inv.y
        let az = (mn.z - o.z) * inv.z, bz = (mx.z - o.z) * inv.z
        let nx = Swift.min(ax, bx), ny = Swift.min(ay, by), nz = Swift.min(az, bz)
        let exit = Swift.min(Swift.max(ax, bx), Swift.max(ay, by), Swift.max(az, bz))
        var enter = nx, axis = 0
        if ny > enter { enter = ny; axis = 1 }
        if nz > enter { enter = nz; axis = 2 }
        return enter <= exit ? (enter, axis) : (.infinity, 0)
    }

    /// Nearest positive ray parameter of a sphere hit, or infinity.
    @inline(__always)
    static func sphereHit(_ c: SIMD3<Double>, _ r: Double, _ o: SIMD3<Double>, _ d: SIMD3<Double>) -> Double {
        let ox = o.x - c.x, oy = o.y - c.y, oz = o.z - c.z
        let a = d.x * d.x + d.y * d.y + d.z * d.z
        let b = ox * d.x + oy * d.y + oz * d.z
        let cc = ox * ox + oy * oy + oz * oz - r * r
        let disc = b * b - a * cc
        guard disc > 0 else { return .infinity }
        return (-b - disc.squareRoot()) / a
    }

    /// Nearest entry into a vertical (elliptic) cylinder with axis (x, z) = `axis`, semi-axes `semiAxes` along x and z,
    /// between heights `bottom` and `top` (flat caps), and the outward normal there; t = infinity when missed.
    @inline(__always)
    static func verticalCylinderHit(axis: SIMD2<Double>, semiAxes: SIMD2<Double>, bottom: Double, top: Double,
                                    _ o: SIMD3<Double>, _ d: SIMD3<Double>) -> (t: Double, normal: SIMD3<Double>) {
        let x0 = (o.x - axis.x) / semiAxes.x, z0 = (o.z - axis.y) / semiAxes.y
        let dx = d.x / semiAxes.x, dz = d.z / semiAxes.y
        var best = Double.infinity, normal = SIMD3<Double>(0, 1, 0)
        let a = dx * dx + dz * dz
        if a > 1e-18 {
            let b = x0 * dx + z0 * dz, c = x0 * x0 + z0 * z0 - 1
            let disc = b * b - a * c
            if disc > 0 {
                let t = (-b - disc.squareRoot()) / a
                let y = o.y + d.y * t
                if t > 1e-6, y >= bottom, y <= top {
                    best = t
                    let n = SIMD3((x0 + dx * t) / semiAxes.x, 0, (z0 + dz * t) / semiAxes.y)
                    normal = n / (n * n).sum().squareRoot()
                }
            }
        }
        // The cap facing the origin (the other one is never the first hit from outside).
        if o.y > top || o.y < bottom, d.y != 0 {
            let capY = o.y > top ? top : bottom
            let t = (capY - o.y) / d.y
            let u = x0 + dx * t, v = z0 + dz * t
            if t > 1e-6, t < best, u * u + v * v <= 1 {
                best = t
                normal = SIMD3(0, o.y > top ? 1 : -1, 0)
            }
        }
        return (best, normal)
    }

    /// Nearest entry into a capsule along x: the segment `center` ± (`halfLength`, 0, 0) swept by a ball of
    /// `radius`, and the outward normal there; t = infinity when missed.
    @inline(__always)
    static func capsuleXHit(center c: SIMD3<Double>, halfLength h: Double, radius r: Double,
                            _ o: SIMD3<Double>, _ d: SIMD3<Double>) -> (t: Double, normal: SIMD3<Double>) {
        var best = Double.infinity, normal = SIMD3<Double>(0, 1, 0)
        let y0 = o.y - c.y, z0 = o.z - c.z
        let a = d.y * d.y + d.z * d.z
        if a > 1e-18 {
            let b = y0 * d.y + z0 * d.z, cc = y0 * y0 + z0 * z0 - r * r
            let disc = b * b - a * cc
            if disc > 0 {
                let t = (-b - disc.squareRoot()) / a
                let x = o.x + d.x * t
                if t > 1e-6, abs(x - c.x) <= h {
                    best = t
                    normal = SIMD3(0, y0 + d.y * t, z0 + d.z * t) / r
                }
            }
        }
        let left = SIMD3(c.x - h, c.y, c.z), right = SIMD3(c.x + h, c.y, c.z)
        let tl = sphereHit(left, r, o, d), tr = sphereHit(right, r, o, d)
        if tl > 1e-6, tl < best { best = tl; normal = (o + d * tl - left) / r }
        if tr > 1e-6, tr < best { best = tr; normal = (o + d * tr - right) / r }
        return (best, normal)
    }

    // MARK: Materials

    /// Skin of the person in the back scene (a shade darker and warmer than the wall plaster behind).
    static let backSkin = SIMD3<Double>(0.50, 0.33, 0.25)

    /// The back person's head: hair on top and at the back, eyes and mouth on the face (which looks along −z).
    func backHeadAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let q = (p - SceneLayout.backHeadCenter) / SceneLayout.backHeadRadius
        // Hairline a little uneven across the forehead.
        let hairline = 0.38 + 0.12 * SceneRenderer.noise(q.x * 6, 0, seed: 82)
        if q.y > hairline || q.z > 0.3 {
            let strands = 0.7 + 0.3 * sin(atan2(q.x, q.z) * 220 + 5 * SceneRenderer.noise(q.y * 9, q.x * 9, seed: 83))
            return SIMD3(0.16, 0.10, 0.06) * strands
        }
        if q.z < -0.5, abs(q.y - 0.12) < 0.07, abs(abs(q.x) - 0.35) < 0.11 { return SIMD3(0.09, 0.07, 0.07) }
        if q.z < -0.5, abs(q.y + 0.45) < 0.05, abs(q.x) < 0.24 { return SIMD3(0.33, 0.09, 0.08) }
        return SceneRenderer.backSkin * (0.95 + 0.1 * SceneRenderer.noise(q.x * 30, q.y * 30, seed: 84))
    }

    /// The poster's title band: four sRGB inks and two wide-gamut ones — Display P3's green and a P3
    /// cyan-green, written in linear sRGB (their red is negative: no sRGB colour matches them), so a
    /// P3 photo can keep colours an sRGB photo must clip.
    static let posterPalette: [SIMD3<Double>] = [
        SIMD3(0.6, 0.08, 0.05), SIMD3(0.05, 0.3, 0.6), SIMD3(-0.10, 0.47, -0.035),
        SIMD3(0.7, 0.5, 0.03), SIMD3(0.1, 0.4, 0.1), SIMD3(-0.09, 0.42, 0.16),
    ]
    /// Text rows on the easel board, top to bottom: (distance from the top, letter height), metres.
    static let textBands: [(top: Double, h: Double)] = [(0, 0.024), (0.045, 0.014), (0.085, 0.008), (0.115, 0.005), (0.14, 0.003), (0.16, 0.002)]

    @inline(__always)
    static func hash(_ a: Int, _ b: Int, _ c: Int = 0) -> Double {
        var x = UInt64(bitPattern: Int64(a)) &* 0x9E37_79B9_7F4A_7C15
        x ^= UInt64(bitPattern: Int64(b)) &* 0xC2B2_AE3D_27D4_EB4F
        x ^= UInt64(bitPattern: Int64(c)) &* 0x1656_67B1_9E37_79F9
        x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 29)) &* 0x94D0_49BB_1331_11EB
        return Double((x ^ (x >> 32)) >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Smooth value noise in [0, 1).
    static func noise(_ x: Double, _ y: Double, seed: Int = 0) -> Double {
        guard abs(x) < 1e15, abs(y) < 1e15 else { return 0.5 }
        let xf = x.rounded(.down), yf = y.rounded(.down)
        let xi = Int(xf), yi = Int(yf)
        var fx = x - xf, fy = y - yf
        fx = fx * fx * (3 - 2 * fx); fy = fy * fy * (3 - 2 * fy)
        let a = hash(xi, yi, seed), b = hash(xi + 1, yi, seed), c = hash(xi, yi + 1, seed), e = hash(xi + 1, yi + 1, seed)
        return (a + (b - a) * fx) + ((c + (e - c) * fx) - (a + (b - a) * fx)) * fy
    }

    func plaster(_ u: Double, _ v: Double, _ base: SIMD3<Double>) -> SIMD3<Double> {
        // Soft blotches plus a 1 mm grain (one hash per cell, no interpolation).
        let grain = SceneRenderer.hash(Int((u * 1000).rounded(.down)), Int((v * 1000).rounded(.down)), 4)
        return base * (0.93 + 0.06 * SceneRenderer.noise(u * 40, v * 40, seed: 3) + 0.025 * grain)
    }

    /// Wood: per-plank tone, growth rings across u distorted along v.
    func wood(_ u: Double, _ v: Double, _ base: SIMD3<Double>, seed: Int) -> SIMD3<Double> {
        let ring = u * 90 + 3 * SceneRenderer.noise(u * 6, v * 2, seed: seed) + 0.4 * SceneRenderer.noise(v * 30, u * 30, seed: seed + 1)
        let frac = ring - ring.rounded(.down)
        let grain = 0.78 + 0.3 * (0.5 + 0.5 * cos(2 * Double.pi * frac)) * (0.5 + 0.5 * cos(2 * Double.pi * frac))
        let fine = 0.95 + 0.1 * SceneRenderer.noise(u * 900, v * 60, seed: seed + 2)
        return base * (grain * fine)
    }

    /// Woven fabric with thread period `pitch` metres.
    func fabric(_ u: Double, _ v: Double, _ base: SIMD3<Double>, pitch: Double) -> SIMD3<Double> {
        let a = sin(2 * Double.pi * u / pitch), b = sin(2 * Double.pi * v / pitch)
        let weave = 0.82 + 0.18 * (a * b > 0 ? abs(a) : abs(b))
        return base * weave * (0.9 + 0.2 * SceneRenderer.noise(u * 25, v * 25, seed: 11))
    }

    func floorAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let plankWidth = 0.14
        let plank = Int((p.x / plankWidth).rounded(.down))
        let inPlank = p.x / plankWidth - Double(plank)
        let tone = 0.8 + 0.4 * SceneRenderer.hash(plank, 1, 5)
        var c = wood(p.x * 0.3 + Double(plank) * 1.7, p.z * 0.05, SIMD3(0.36, 0.22, 0.11) * tone, seed: 20)
        // Seams along the planks and staggered end joints.
        let endJoint = (p.z + SceneRenderer.hash(plank, 2, 5) * 1.2).truncatingRemainder(dividingBy: 1.2)
        if inPlank < 0.02 || abs(endJoint) < 0.004 { c *= 0.35 }
        return c
    }

    func backWallAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let wm = SceneLayout.windowMin, wM = SceneLayout.windowMax
        if p.x > wm.x, p.x < wM.x, p.y > wm.y, p.y < wM.y { return SIMD3(repeating: 0.85) }  // window frame
        let pm = SceneLayout.posterMin, pM = SceneLayout.posterMax
        if p.x >= pm.x, p.x <= pM.x, p.y >= pm.y, p.y <= pM.y {
            let border = 0.04
            if p.x < pm.x + 0.012 || p.x > pM.x - 0.012 || p.y < pm.y + 0.012 || p.y > pM.y - 0.012 {
                return SIMD3(repeating: 0.04)  // black frame
            }
            if p.y > pM.y - 0.2 {  // coloured title band
                let hue = Int(((p.x - pm.x) / 0.1).rounded(.down))
                return SceneRenderer.posterPalette[hue % SceneRenderer.posterPalette.count]
            }
            return text(u: p.x - pm.x - border, v: pM.y - 0.22 - p.y, lineHeight: 0.03, paper: 0.8, seed: 31)
        }
        for (photo, lo, hi) in [(PhotoPrint.parrots, SceneLayout.parrotsPrintMin, SceneLayout.parrotsPrintMax),
                                (PhotoPrint.motorcycles, SceneLayout.motorcyclePrintMin, SceneLayout.motorcyclePrintMax)]
            where p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y {
            return framedPrint(photo, x: p.x - lo.x, y: hi.y - p.y, width: hi.x - lo.x, height: hi.y - lo.y)
        }
        return plaster(p.x, p.y, SIMD3(0.58, 0.54, 0.47))
    }

    /// A photograph in a black frame with a white mat; (x, y) from the frame's top-left corner, metres.
    func framedPrint(_ photo: PhotoPrint, x: Double, y: Double, width: Double, height: Double) -> SIMD3<Double> {
        let frame = SceneLayout.printFrame, edge = frame + SceneLayout.printMat
        if x < frame || y < frame || x > width - frame || y > height - frame { return SIMD3(repeating: 0.04) }
        if x < edge || y < edge || x > width - edge || y > height - edge { return SIMD3(repeating: 0.82) }
        return photo.sample(u: (x - edge) / (width - 2 * edge), v: (y - edge) / (height - 2 * edge))
    }

    func frontWallAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let dm = SceneLayout.doorMin, dM = SceneLayout.doorMax
        if p.x >= dm.x, p.x <= dM.x, p.y >= dm.y, p.y <= dM.y {
            if p.x > dM.x - 0.12, abs(p.y - (-0.35)) < 0.015 { return SIMD3(0.7, 0.6, 0.3) }  // handle
            return wood(p.y, p.x, SIMD3(0.30, 0.18, 0.09), seed: 40)
        }
        let am = SceneLayout.paintingMin, aM = SceneLayout.paintingMax
        if p.x >= am.x, p.x <= aM.x, p.y >= am.y, p.y <= aM.y {
            let stripe = Int(((p.x - am.x) / 0.075).rounded(.down)) + 2 * Int(((p.y - am.y) / 0.2).rounded(.down))
            return MacbethChart.linear[(stripe * 7) % 18]
        }
        return plaster(p.x, p.y, SIMD3(0.42, 0.47, 0.52))
    }

    /// Text-like glyphs: rows of 5×7 random-bit characters on paper.
    func text(u: Double, v: Double, lineHeight h: Double, paper: Double, seed: Int) -> SIMD3<Double> {
        guard u >= 0, v >= 0 else { return SIMD3(repeating: paper) }
        let row = Int((v / (1.6 * h)).rounded(.down))
        let fv = v - Double(row) * 1.6 * h
        guard fv < h else { return SIMD3(repeating: paper) }
        let cw = 0.7 * h
        let col = Int((u / cw).rounded(.down))
        let cu = (u - Double(col) * cw) / cw
        guard cu < 0.78, SceneRenderer.hash(row, col, seed) > 0.15 else { return SIMD3(repeating: paper) }
        let bx = Int(cu / 0.78 * 5), by = Int(fv / h * 7)
        let ink = SceneRenderer.hash(row * 64 + by, col * 8 + bx, seed + 1) < 0.45
        return SIMD3(repeating: ink ? 0.035 : paper)
    }

    func boardAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let x = p.x, y = p.y
        // Colour chart.
        let cx = (x - SceneLayout.chartMinX) / SceneLayout.patchPitch, cy = (SceneLayout.chartMaxY - y) / SceneLayout.patchPitch
        if cx >= 0, cx < 6, cy >= 0, cy < 4 {
            let col = Int(cx), row = Int(cy)
            let fx = (cx - Double(col)) * SceneLayout.patchPitch, fy = (cy - Double(row)) * SceneLayout.patchPitch
            let b = SceneLayout.patchBorder
            if fx < b || fy < b || fx > SceneLayout.patchPitch - b || fy > SceneLayout.patchPitch - b {
                return SIMD3(repeating: 0.03)
            }
            return MacbethChart.linear[row * 6 + col]
        }
        // Zone plate.
        let zm = SceneLayout.zoneMin, zM = SceneLayout.zoneMax
        if x >= zm.x, x <= zM.x, y >= zm.y, y <= zM.y {
            let c = (zm + zM) / 2
            let r2 = (x - c.x) * (x - c.x) + (y - c.y) * (y - c.y)
            return SIMD3(repeating: 0.45 + 0.4 * cos(SceneLayout.zoneK * r2))
        }
        // Text rows of decreasing size (a resolution chart of sorts).
        let tm = SceneLayout.textMin, tM = SceneLayout.textMax
        if x >= tm.x, x <= tM.x, y >= tm.y, y <= tM.y {
            let v = tM.y - y
            var lineHeight = 0.024, start = 0.0
            for band in SceneRenderer.textBands where v >= band.top { lineHeight = band.h; start = band.top }
            return text(u: x - tm.x, v: v - start, lineHeight: lineHeight, paper: 0.85, seed: 50 + Int(start * 1000))
        }
        return SIMD3(repeating: SceneLayout.boardAlbedo)
    }

    func headAlbedo(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let c = SceneLayout.headCenter
        let q = (p - c) / SceneLayout.headRadius
        // Hair on top and at the back; eyes and mouth as dark marks on the face side (+z).
        if q.y > 0.45 || q.z < -0.2 {
            let strands = 0.7 + 0.3 * sin(atan2(q.x, q.z) * 180 + 6 * SceneRenderer.noise(q.y * 8, q.x * 8, seed: 60))
            return SIMD3(0.06, 0.04, 0.03) * strands
        }
        if q.z > 0.5, abs(q.y - 0.2) < 0.08, abs(abs(q.x) - 0.35) < 0.12 { return SIMD3(0.03, 0.03, 0.04) }
        if q.z > 0.5, abs(q.y + 0.45) < 0.05, abs(q.x) < 0.25 { return SIMD3(0.35, 0.08, 0.08) }
        return SIMD3(0.56, 0.38, 0.30) * (0.95 + 0.1 * SceneRenderer.noise(q.x * 30, q.y * 30, seed: 61))
    }

    /// What the back cameras see through the window, or nil when `p` hits wall or window frame.
    func windowRadiance(p: SIMD3<Double>, d: SIMD3<Double>) -> SIMD3<Double>? {
        let wm = SceneLayout.windowMin, wM = SceneLayout.windowMax, f = SceneLayout.windowFrame
        guard p.x > wm.x, p.x < wM.x, p.y > wm.y, p.y < wM.y else { return nil }
        if p.x < wm.x + f || p.x > wM.x - f || p.y < wm.y + f || p.y > wM.y - f { return nil }
        let mid = (wm + wM) / 2
        if abs(p.x - mid.x) < SceneLayout.mullion / 2 || abs(p.y - mid.y) < SceneLayout.mullion / 2 { return nil }
        let horizontal = (d.x * d.x + d.z * d.z).squareRoot()
        let elevation = atan2(d.y, horizontal), azimuth = atan2(d.x, d.z)
        let building = Int((azimuth * 14).rounded(.down))
        let skyline = 0.02 + 0.10 * SceneRenderer.hash(building, 3, 70)
        if elevation > skyline {
            let gradient = 1.3 - 0.6 * min(1, (elevation - skyline) / 0.35)
            let cloud = SceneRenderer.noise(azimuth * 12, elevation * 30, seed: 71)
            let white = max(0, cloud - 0.55) * 1.5
            let colour = SIMD3<Double>(0.75, 0.88, 1.2) * (1 - white) + SIMD3(repeating: 0.92) * white
            return colour / 0.8755 * (sky * gradient * (1 + 0.4 * white))
        }
        // Buildings: facades with a grid of windows; some are lit at night.
        let u = azimuth * 160, v = elevation * 160
        let cellX = Int(u.rounded(.down)), cellY = Int(v.rounded(.down))
        let inWindow = u - Double(cellX) > 0.3 && v - Double(cellY) > 0.35
        let tint = SIMD3<Double>(0.75, 0.7, 0.6) + SceneRenderer.hash(building, 4, 70) * SIMD3(0.2, 0.25, 0.35)
        var albedo = tint * (inWindow ? 0.08 : 0.3)
        if elevation < -0.06 { albedo = SIMD3(0.12, 0.2, 0.08) * (0.8 + 0.4 * SceneRenderer.noise(u * 0.7, v * 2, seed: 72)) }
        var radiance = albedo * (outside / Double.pi)
        if inWindow, elevation >= -0.06, lighting == .dark || lighting == .dim, SceneRenderer.hash(cellX, cellY, 73) > 0.7 {
            radiance += SIMD3(1.0, 0.75, 0.45) * 15
        }
        return radiance
    }

}
