import CameraSimulation

/// OpenCapture addition: how the simulated living room in front of the cameras is lit.
public enum SimulatedLighting: String, Sendable, CaseIterable {
    /// Sunlit room (interior ≈ 500 lux, bright window).
    case daylight
    /// Evening room lights (≈ 150 lux) with a bright window; the default.
    case indoor
    /// Dim room (≈ 10 lux): auto still-image stabilisation takes over.
    case dim
    /// Night (≈ 1 lux): auto flash fires.
    case dark

    var sceneLighting: SceneLighting {
        switch self {
        case .daylight: return .daylight
        case .indoor: return .indoor
        case .dim: return .dim
        case .dark: return .dark
        }
    }
}
