/// Geometry of the living room, metres (x right, y up, z out of the phone's back; phone at the origin).
enum SceneLayout {
    struct Box {
        var min: SIMD3<Double>
        var max: SIMD3<Double>
    }

    @inline(__always) static var room: Box { Box(min: SIMD3(-2.2, -1.3, -2.0), max: SIMD3(2.2, 1.3, 4.0)) }

    // Back wall (z = 4): window and poster.
    @inline(__always) static var windowMin: SIMD2<Double> { SIMD2<Double>(-1.7, -0.3) }
    @inline(__always) static var windowMax: SIMD2<Double> { SIMD2<Double>(-0.3, 0.9) }
    static let windowFrame = 0.05, mullion = 0.04
    @inline(__always) static var posterMin: SIMD2<Double> { SIMD2<Double>(0.4, 0.1) }
    @inline(__always) static var posterMax: SIMD2<Double> { SIMD2<Double>(1.5, 0.8) }
    /// Framed photographic prints (outer edge of the frame; `printFrame` of black frame, then `printMat`
    /// of white mat around the photograph): Kodak's parrots between the window and the poster, above the
    /// easel board; its motorcycles right of the poster.
    @inline(__always) static var parrotsPrintMin: SIMD2<Double> { SIMD2<Double>(-0.22, 0.64) }
    @inline(__always) static var parrotsPrintMax: SIMD2<Double> { SIMD2<Double>(0.30, 1.16) }
    @inline(__always) static var motorcyclePrintMin: SIMD2<Double> { SIMD2<Double>(1.58, 0.44) }
    @inline(__always) static var motorcyclePrintMax: SIMD2<Double> { SIMD2<Double>(2.12, 0.98) }
    static let printFrame = 0.015, printMat = 0.03

    // Easel board at 1.5 m (front face), with chart, zone plate, text and a grey panel.
    static let boardZ = 1.5
    @inline(__always) static var board: Box { Box(min: SIMD3(-0.36, -0.33, 1.5), max: SIMD3(0.60, 0.22, 1.52)) }
    static let boardAlbedo = 0.18
    /// The easel's ledge under the board (it hides the strip below the board from the telephoto lens).
    @inline(__always) static var ledge: Box { Box(min: SIMD3(-0.36, -0.36, 1.44), max: SIMD3(0.60, -0.33, 1.52)) }
    static let chartMinX = -0.02, chartMaxY = -0.06, patchPitch = 0.06, patchBorder = 0.005
    @inline(__always) static var zoneMin: SIMD2<Double> { SIMD2<Double>(-0.33, -0.31) }
    @inline(__always) static var zoneMax: SIMD2<Double> { SIMD2<Double>(-0.05, -0.03) }
    static let zoneK = 37_500.0
    @inline(__always) static var textMin: SIMD2<Double> { SIMD2<Double>(-0.33, 0.0) }
    @inline(__always) static var textMax: SIMD2<Double> { SIMD2<Double>(0.57, 0.20) }

    // Objects.
    @inline(__always) static var nearBoxMin: SIMD3<Double> { SIMD3<Double>(-0.34, -0.26, 0.6) }
    @inline(__always) static var nearBoxMax: SIMD3<Double> { SIMD3<Double>(-0.20, -0.08, 0.8) }
    @inline(__always) static var sofaMin: SIMD3<Double> { SIMD3<Double>(0.5, -1.3, 3.0) }
    @inline(__always) static var sofaMax: SIMD3<Double> { SIMD3<Double>(1.9, -0.75, 3.8) }
    @inline(__always) static var sofaBackMin: SIMD3<Double> { SIMD3<Double>(0.5, -0.75, 3.55) }
    @inline(__always) static var sofaBackMax: SIMD3<Double> { SIMD3<Double>(1.9, -0.3, 3.8) }
    @inline(__always) static var ballCenter: SIMD3<Double> { SIMD3<Double>(0.15, -1.05, 2.4) }
    @inline(__always) static var ballRadius: Double { 0.25 }

    // A person standing behind the easel board (back cameras), 2.45 m away: head and a little neck above the
    // board's top edge in the telephoto view (the board fills most of it), legs below the board in the wide view.
    // Clear of every landmark ray and of the ball (traced in SceneTests).
    @inline(__always) static var backHeadCenter: SIMD3<Double> { SIMD3<Double>(0.6, 0.48, 2.45) }
    @inline(__always) static var backHeadRadius: Double { 0.09 }
    /// Vertical axis (x, z) of neck, torso and the point between the legs.
    @inline(__always) static var backBodyAxis: SIMD2<Double> { SIMD2<Double>(0.6, 2.47) }
    static let backNeckRadius = 0.05, backNeckBottom = 0.28, backNeckTop = 0.44
    /// Shoulders: a capsule along x at `backShoulderY`, half length (between the sphere centres) and radius.
    static let backShoulderY = 0.30, backShoulderHalfLength = 0.13, backShoulderRadius = 0.06
    /// Torso: vertical elliptic cylinder, semi-axes along x and z, from the hips to the shoulders.
    static let backTorsoSemiAxes = SIMD2<Double>(0.19, 0.11), backTorsoBottom = -0.45
    /// Legs: two vertical cylinders from the floor to the hips at x = axis ± `backLegOffset`.
    static let backLegOffset = 0.09, backLegRadius = 0.065
    /// Bounds of all the parts above (the per-ray pre-test).
    @inline(__always) static var backPersonBounds: Box {
        Box(min: SIMD3(0.39, -1.3, 2.35), max: SIMD3(0.81, 0.58, 2.59))
    }

    // Front side (seen by the front camera).
    @inline(__always) static var headCenter: SIMD3<Double> { SIMD3<Double>(0.0, 0.07, -0.45) }
    @inline(__always) static var headRadius: Double { 0.095 }
    @inline(__always) static var torsoMin: SIMD3<Double> { SIMD3<Double>(-0.2, -0.65, -0.62) }
    @inline(__always) static var torsoMax: SIMD3<Double> { SIMD3<Double>(0.2, -0.04, -0.42) }
    @inline(__always) static var doorMin: SIMD2<Double> { SIMD2<Double>(0.3, -1.3) }
    @inline(__always) static var doorMax: SIMD2<Double> { SIMD2<Double>(1.2, 0.8) }
    @inline(__always) static var paintingMin: SIMD2<Double> { SIMD2<Double>(-1.3, -0.1) }
    @inline(__always) static var paintingMax: SIMD2<Double> { SIMD2<Double>(-0.4, 0.55) }

    /// Distance recorded for the outside seen through the window, metres.
    static let outsideDepth = 60.0
}
