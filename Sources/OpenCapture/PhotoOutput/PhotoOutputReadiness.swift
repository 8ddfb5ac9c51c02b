/// The requests a photo output has in hand, as its `captureReadiness` counts them: those the sensor has yet to capture
/// (submitted, until `didCapturePhoto`) and those being developed (until `didFinishCapture`). Pure: the output keeps one
/// under its lock and asks it for its readiness.
struct PhotoOutputReadiness: Sendable, Equatable {
    /// Requests waiting for or on the sensor; the value says whether the capture is a long one (the flash's pre-flash
    /// and flash, a multi-frame stabilised merge or a bracket).
    var capturing: [Int64: Bool] = [:]
    /// Requests captured and being developed and encoded.
    var processing: Set<Int64> = []

    /// Requests being developed at which the output stops being ready (`.notReadyWaitingForProcessing`): each 12 MP
    /// one in flight holds its frames and photo (≈ 150 MB); Apple does not document its limit.
    static let processingLimit = 4

    /// Apple's states: `.notReadyWaitingForCapture` while a long capture is on the sensor, `.notReadyMomentarily` while
    /// a short one is, `.notReadyWaitingForProcessing` with `processingLimit` photos being developed, else `.ready`
    /// (`.sessionNotRunning` when not `running`).
    func readiness(running: Bool) -> AVCapturePhotoOutput.CaptureReadiness {
        guard running else { return .sessionNotRunning }
        if capturing.values.contains(true) { return .notReadyWaitingForCapture }
        if !capturing.isEmpty { return .notReadyMomentarily }
        if processing.count >= Self.processingLimit { return .notReadyWaitingForProcessing }
        return .ready
    }

    /// A request submitted to the sensor.
    mutating func submitted(_ id: Int64) { capturing[id] = false }
    /// The request's plan is known: whether its capture is a long one.
    mutating func planned(_ id: Int64, long: Bool) { if capturing[id] != nil { capturing[id] = long } }
    /// The sensor is done with the request.
    mutating func captured(_ id: Int64) {
        if capturing.removeValue(forKey: id) != nil { processing.insert(id) }
    }
    /// The request is complete.
    mutating func finished(_ id: Int64) {
        capturing.removeValue(forKey: id)
        processing.remove(id)
    }
}
