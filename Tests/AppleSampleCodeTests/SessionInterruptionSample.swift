/*
 How AVCam's camera controller reads why its session was interrupted (the handler of
 `.AVCaptureSessionWasInterrupted`), written for this test: the notification's userInfo carries an NSNumber under
 `AVCaptureSessionInterruptionReasonKey`, whose integer is an `AVCaptureSession.InterruptionReason`. AVCam reads it
 with `as AnyObject?` and `.integerValue`, a dynamic AnyObject lookup Swift has only with the Objective-C runtime; on
 Linux the NSNumber is read with `as? Int`, which compiles on both.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation
import XCTest

/// What an app does with an interruption's reason: offer to resume when another client has the camera or the audio.
final class InterruptionWatcher {
    private(set) var reasons: [AVCaptureSession.InterruptionReason] = []
    private(set) var showsResumeButton = false
    private var token: NSObjectProtocol?

    init(session: AVCaptureSession) {
        token = NotificationCenter.default.addObserver(forName: AVCaptureSession.wasInterruptedNotification, object: session,
                                                       queue: nil) { [weak self] notification in
            self?.sessionWasInterrupted(notification: notification)
        }
    }

    deinit { token.map(NotificationCenter.default.removeObserver) }

    func sessionWasInterrupted(notification: Notification) {
        guard let value = notification.userInfo?[AVCaptureSessionInterruptionReasonKey] as? Int,
              let reason = AVCaptureSession.InterruptionReason(rawValue: value) else { return }
        reasons.append(reason)
        switch reason {
        case .audioDeviceInUseByAnotherClient, .videoDeviceInUseByAnotherClient: showsResumeButton = true
        case .videoDeviceNotAvailableWithMultipleForegroundApps, .videoDeviceNotAvailableDueToSystemPressure,
             .videoDeviceNotAvailableInBackground, .sensitiveContentMitigationActivated: break
        @unknown default: break
        }
    }
}

final class SessionInterruptionSampleTests: XCTestCase {
    /// The key and the reasons have Apple's values, and a handler reading them compiles and decodes a reason posted
    /// the way iOS posts it (an NSNumber). OpenCapture itself never posts the notification: a session that starts and
    /// stops is not interrupted.
    func testAnInterruptionHandlerReadsTheReason() {
        XCTAssertEqual(AVCaptureSessionInterruptionReasonKey, "AVCaptureSessionInterruptionReasonKey")
        XCTAssertEqual([AVCaptureSession.InterruptionReason.videoDeviceNotAvailableInBackground, .audioDeviceInUseByAnotherClient,
                        .videoDeviceInUseByAnotherClient, .videoDeviceNotAvailableWithMultipleForegroundApps,
                        .videoDeviceNotAvailableDueToSystemPressure, .sensitiveContentMitigationActivated].map(\.rawValue),
                       [1, 2, 3, 4, 5, 6])
        XCTAssertEqual(AVCaptureSession.wasInterruptedNotification, .AVCaptureSessionWasInterrupted)
        XCTAssertEqual(AVCaptureSession.interruptionEndedNotification, .AVCaptureSessionInterruptionEnded)

        let session = AVCaptureSession()
        let watcher = InterruptionWatcher(session: session)
        session.startRunning()
        session.stopRunning()
        XCTAssertFalse(session.isInterrupted)
        XCTAssertEqual(watcher.reasons, [], "OpenCapture never interrupts a session")

        NotificationCenter.default.post(name: AVCaptureSession.wasInterruptedNotification, object: session, userInfo: [
            AVCaptureSessionInterruptionReasonKey: NSNumber(value: AVCaptureSession.InterruptionReason.videoDeviceInUseByAnotherClient.rawValue)])
        XCTAssertEqual(watcher.reasons, [.videoDeviceInUseByAnotherClient])
        XCTAssertTrue(watcher.showsResumeButton)
    }
}
