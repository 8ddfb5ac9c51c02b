import Foundation
import Testing
@testable import OpenCapture

/// The session's start and stop notifications.
@Suite struct AVCaptureSessionNotificationTests {
    @Test func startingAndStoppingArePostedOnceEach() throws {
        let rig = CaptureRig()
        rig.session.stopRunning()
        let started = NotificationCounter(), stopped = NotificationCounter()
        let center = NotificationCenter.default
        let a = center.addObserver(forName: .AVCaptureSessionDidStartRunning, object: rig.session, queue: nil) { _ in started.add() }
        let b = center.addObserver(forName: .AVCaptureSessionDidStopRunning, object: rig.session, queue: nil) { _ in stopped.add() }
        defer { center.removeObserver(a); center.removeObserver(b) }
        rig.session.startRunning()
        rig.session.startRunning()   // already running: no second post
        #expect(started.value == 1 && stopped.value == 0 && rig.session.isRunning)
        rig.session.stopRunning()
        rig.session.stopRunning()
        #expect(started.value == 1 && stopped.value == 1 && !rig.session.isRunning)
        #expect(AVCaptureSessionErrorKey == "AVCaptureSessionErrorKey")
    }
}
