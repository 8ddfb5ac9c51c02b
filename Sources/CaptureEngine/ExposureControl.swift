/// How a device chooses exposure: metered from the scene, or fixed by the app (custom or locked).
package enum ExposureControl: Sendable, Equatable {
    case automatic
    /// Fixed duration and ISO; `baselineExposure` is the EV the ISP brightens by (a locked auto exposure keeps its
    /// highlight headroom; a custom exposure has none).
    case manual(duration: Double, iso: Double, baselineExposure: Double = 0)

    package var isManual: Bool {
        if case .manual = self { return true }
        return false
    }
}
