import Foundation

/// A `TrueDepthRig`'s expected-electron renders, made once on first use and shared by copies of the rig.
///
/// `@unchecked Sendable`: `lock` guards `sceneElectrons` and `referenceElectrons`, the only mutable fields.
final class InfraredRenderCache: @unchecked Sendable {
    private let lock = NSLock()
    private var sceneElectrons: [Float]?
    private var referenceElectrons: [Float]?

    /// The scene render, made by `make` on first use.
    func scene(_ make: () -> [Float]) -> [Float] {
        lock.withLock {
            if let cached = sceneElectrons { return cached }
            let made = make()
            sceneElectrons = made
            return made
        }
    }

    /// The reference-plane render, made by `make` on first use.
    func reference(_ make: () -> [Float]) -> [Float] {
        lock.withLock {
            if let cached = referenceElectrons { return cached }
            let made = make()
            referenceElectrons = made
            return made
        }
    }
}
