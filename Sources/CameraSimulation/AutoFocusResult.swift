/// What contrast-detection auto focus found (`SimulatedCamera.autoFocus`).
public struct AutoFocusResult: Sendable, Hashable {
    /// Lens position the sweep settled on (0 = minimum focus distance, 1 = infinity, linear in dioptres).
    public var lensPosition: Double
    /// The focus distance of that lens position, metres.
    public var focusDistance: Double
    /// Frames the sweep exposed and measured.
    public var framesExamined: Int
    /// Simulated time the sweep took: frames × frame time, seconds.
    public var sweepDuration: Double

    public init(lensPosition: Double, focusDistance: Double, framesExamined: Int, sweepDuration: Double) {
        self.lensPosition = lensPosition
        self.focusDistance = focusDistance
        self.framesExamined = framesExamined
        self.sweepDuration = sweepDuration
    }
}
