/// How a device chooses exposure: metered from the scene, or fixed by the app (custom or locked).
package enum ExposureControl: Sendable, Equatable {
    case automatic
    case manual(duration: Double, iso: Double)

    package var isManual: Bool {
        if case .manual = self { return true }
        return false
    }
}
