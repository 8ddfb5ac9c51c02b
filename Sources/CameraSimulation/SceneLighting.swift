/// Interior light level of a `SimulatedScene` (and the matching outside light seen through the window).
public enum SceneLighting: String, Sendable, CaseIterable {
    /// ≈ 500 lux interior, bright sky outside.
    case daylight
    /// ≈ 150 lux interior lamps, overcast daylight outside.
    case indoor
    /// ≈ 10 lux interior, dusk outside.
    case dim
    /// ≈ 1 lux interior, night outside with a few lit windows.
    case dark

    /// Illuminance on an interior vertical surface, lux.
    public var interiorIlluminance: Double {
        switch self {
        case .daylight: return 500
        case .indoor: return 150
        case .dim: return 10
        case .dark: return 1
        }
    }

    /// Mean luminance of the sky seen through the window, cd/m²: a clear sky away from the sun (≈ 7 EV above the
    /// daylit room's median), a bright overcast one (≈ 6.5 EV above the lamp-lit room's), dusk, night.
    public var skyLuminance: Double {
        switch self {
        case .daylight: return 5_000
        case .indoor: return 1_500
        case .dim: return 150
        case .dark: return 0.02
        }
    }

    /// Illuminance on the buildings outside, lux: sunlit facades by day, overcast light with the lamps on.
    public var outsideIlluminance: Double {
        switch self {
        case .daylight: return 30_000
        case .indoor: return 5_000
        case .dim: return 400
        case .dark: return 0.1
        }
    }
}
