/// The world every camera sees: scene-linear radiance (cd/m², linear sRGB primaries, D65-balanced),
/// reflectance and depth in metres, procedurally defined (no image files).
///
/// A living room 4.4 m wide and 2.6 m high; the phone is held at 1.3 m, at the origin, its back
/// cameras looking along +z. In view of the back cameras: the back wall at z = 4 m with a window
/// (sky and buildings outside) and a printed poster, a wooden box at 0.6 m, an easel board at 1.5 m on a wooden
/// ledge, carrying a 24-patch colour chart, a zone plate, rows of text and a mid-grey panel, a yellow ball
/// at 2.4 m, a red fabric sofa at 3 m on a plank floor, and a person standing behind the easel at 2.45 m (head
/// above the board in the telephoto view, legs below it in the wide view; beige shirt, dark red trousers, skin and
/// hair close to the wall, poster and sofa behind them in places). Behind the phone (front camera): a person
/// at ≈ 0.45 m in front of the opposite wall (z = −2 m) with a door and a painting.
/// Radiance = albedo × illuminance / π plus the emissive outside.
public struct SimulatedScene: Sendable, Hashable {
    /// Light level of the room (and of the outside seen through the window).
    public var lighting: SceneLighting

    /// Creates the living-room scene under `lighting`.
    public init(lighting: SceneLighting = .indoor) {
        self.lighting = lighting
    }

    /// The living room under `lighting`.
    public static func livingRoom(lighting: SceneLighting = .indoor) -> SimulatedScene {
        SimulatedScene(lighting: lighting)
    }

    /// The living room under indoor lighting.
    public static let `default` = SimulatedScene.livingRoom(lighting: .indoor)

    // MARK: Landmarks (world coordinates, metres) for tests and tools.

    /// Centre of colour-chart patch `index` (0…23, row-major from the top-left "dark skin"; 18…23 are the neutrals).
    public static func colorChartPatchCenter(_ index: Int) -> SIMD3<Double> {
        let column = Double(index % 6), row = Double(index / 6)
        return SIMD3(SceneLayout.chartMinX + SceneLayout.patchPitch * (column + 0.5),
                     SceneLayout.chartMaxY - SceneLayout.patchPitch * (row + 0.5), SceneLayout.boardZ)
    }

    /// Edge length of one colour-chart patch including its border, metres.
    public static let colorChartPatchPitch = SceneLayout.patchPitch

    /// Linear sRGB albedo of colour-chart patch `index` (Macbeth sRGB values, linearised).
    public static func colorChartAlbedo(_ index: Int) -> SIMD3<Double> { MacbethChart.linear[index] }

    /// Centre of the flat 18 % grey panel on the easel board (1.5 m).
    public static let midGreyPanelCenter = SIMD3<Double>(0.475, -0.16, SceneLayout.boardZ)

    /// Albedo of the mid-grey panel (and of the board's background).
    public static let midGreyAlbedo = SceneLayout.boardAlbedo

    /// Centre of the zone plate on the easel board.
    public static let zonePlateCenter = SIMD3<Double>(-0.19, -0.17, SceneLayout.boardZ)

    /// Centre of the front face of the wooden box at 0.6 m.
    public static let nearObjectCenter = SIMD3<Double>(-0.27, -0.17, SceneLayout.nearBoxMin.z)

    /// A point on the back wall (4 m) away from the window and poster.
    public static let backWallPoint = SIMD3<Double>(1.85, 0.3, SceneLayout.room.max.z)

    /// A point inside the window's upper-left pane (sky for the back cameras), on the back-wall plane.
    public static let windowSkyPoint = SIMD3<Double>(-1.35, 0.7, SceneLayout.room.max.z)

    /// Centre of the sofa's front face (3 m).
    public static let farObjectCenter = SIMD3<Double>(1.2, -1.0, SceneLayout.sofaMin.z)

    /// Centre of the face of the person the front camera sees.
    public static let faceCenter = SceneLayout.headCenter + SIMD3(0, -0.01, SceneLayout.headRadius)

    /// Centre of the face of the person standing behind the easel board (back cameras, ≈ 2.36 m; the face looks at the phone).
    public static let backPersonFaceCenter = SceneLayout.backHeadCenter + SIMD3(0, -0.01, -SceneLayout.backHeadRadius)

    /// A point on the top of the back person's head (hair), just inside the telephoto frame's top edge.
    public static let backPersonHairPoint = SceneLayout.backHeadCenter + SIMD3(0, 0.6, -0.8) * SceneLayout.backHeadRadius

    /// A point on the front of the back person's left leg (image left; below the easel board in the wide view).
    public static let backPersonLegPoint = SIMD3<Double>(SceneLayout.backBodyAxis.x - SceneLayout.backLegOffset, -0.9,
                                                         SceneLayout.backBodyAxis.y - SceneLayout.backLegRadius)
}
