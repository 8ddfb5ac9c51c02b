import CaptureCore
import Foundation
@testable import OpenCapture
import Testing

/// `captureReadiness`: the requests in hand, from the state's rules to a running output.
struct PhotoOutputReadinessTests {
    @Test func statesFollowTheRequestsInHand() {
        var state = PhotoOutputReadiness()
        #expect(state.readiness(running: false) == .sessionNotRunning)
        #expect(state.readiness(running: true) == .ready)
        state.submitted(1)
        #expect(state.readiness(running: true) == .notReadyMomentarily)
        #expect(state.readiness(running: false) == .sessionNotRunning)
        state.planned(1, long: true)
        #expect(state.readiness(running: true) == .notReadyWaitingForCapture)
        state.captured(1)
        #expect(state.readiness(running: true) == .ready, "one photo being developed leaves the sensor free")
        state.finished(1)
        #expect(state == PhotoOutputReadiness())
        // A plan reported for a request no longer capturing changes nothing.
        state.planned(1, long: true)
        #expect(state.readiness(running: true) == .ready)
    }

    @Test func aBacklogOfDevelopmentMakesItWaitForProcessing() {
        var state = PhotoOutputReadiness()
        for id in Int64(1)...Int64(PhotoOutputReadiness.processingLimit) {
            state.submitted(id)
            state.captured(id)
        }
        #expect(state.readiness(running: true) == .notReadyWaitingForProcessing)
        // A capture on the sensor says so first.
        state.submitted(9)
        #expect(state.readiness(running: true) == .notReadyMomentarily)
        state.finished(9)
        state.finished(1)
        #expect(state.readiness(running: true) == .ready)
    }

    /// A 0.3 s manual exposure with the flash: not ready at once, waiting for the (long, flash) capture while it is on
    /// the sensor, ready again when the request is complete.
    @Test func aFlashCaptureMakesTheOutputWaitForIt() async throws {
        let rig = CaptureRig(lighting: .dark)
        #expect(rig.output.captureReadiness == .ready)
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 3, timescale: 10), iso: 100)
        rig.device.unlockForConfiguration()
        let settings = AVCapturePhotoSettings()
        settings.flashMode = .on
        let delegate = RecordingDelegate(output: rig.output)
        let atBegin = Locked<AVCapturePhotoOutput.CaptureReadiness?>(nil)
        let output = rig.output
        delegate.onBegin = { _ in atBegin.wrappedValue = output.captureReadiness }
        rig.output.capturePhoto(with: settings, delegate: delegate)
        #expect(rig.output.captureReadiness != .ready)
        await delegate.waitUntilFinished()
        #expect(delegate.errors.isEmpty)
        #expect(atBegin.wrappedValue == .notReadyWaitingForCapture)
        #expect(rig.output.captureReadiness == .ready)
    }

    /// The coordinator is not ready from the tap until the output has the request, then counts it as the output does.
    @Test func theCoordinatorCountsATrackedRequest() async throws {
        let rig = CaptureRig()
        let coordinator = AVCapturePhotoOutputReadinessCoordinator(photoOutput: rig.output)
        #expect(coordinator.captureReadiness == .ready)
        let settings = AVCapturePhotoSettings()
        coordinator.startTrackingCaptureRequest(using: settings)
        #expect(coordinator.captureReadiness == .notReadyMomentarily)
        let result = try await rig.output.capturePhotos(with: settings)
        coordinator.stopTrackingCaptureRequest(using: settings.uniqueID)
        #expect(result.photos.count == 1)
        #expect(coordinator.captureReadiness == .ready)
    }
}
