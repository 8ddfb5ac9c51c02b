import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

@Suite struct AVCaptureDeviceTests {
    /// As on an iPhone with Face ID: the front camera is a wide-angle camera of its own ("Front Camera", no depth) and
    /// the TrueDepth camera besides it — AVCam asks for the first.
    @Test func theFrontCameraIsAWideAngleCameraBesideTheTrueDepthCamera() throws {
        let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        #expect(front.position == .front && front.deviceType == .builtInWideAngleCamera)
        #expect(front.localizedName == "Front Camera")
        #expect(front.formats.allSatisfy { $0.supportedDepthDataFormats.isEmpty })
        let trueDepth = try #require(AVCaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front))
        #expect(trueDepth !== front && trueDepth.uniqueID != front.uniqueID)
        #expect(trueDepth.formats.contains { !$0.supportedDepthDataFormats.isEmpty })
        #expect(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)?.position == .back)
        #expect(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .front)?.deviceType == .builtInWideAngleCamera)
    }

    /// A front camera's connection mirrors by itself; setting the mirroring needs the automatic adjustment off first
    /// (Apple raises; here it is reported and ignored).
    @Test func mirroringIsSetOnlyWithTheAutomaticAdjustmentOff() throws {
        let device = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .front))
        let session = AVCaptureSession(), output = AVCaptureVideoDataOutput()
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        let connection = try #require(output.connections.first)
        #expect(connection.isVideoMirrored)
        let reports = DiagnosticsRecorder.reports(containing: "isVideoMirrored") { connection.isVideoMirrored = false }
        #expect(reports.count == 1 && connection.isVideoMirrored)
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = false
        #expect(!connection.isVideoMirrored)
    }

    /// The completion handlers of the custom-exposure, bias and lens-position setters get a timestamp on the device
    /// clock (the host clock) at which the change took effect, as Apple documents: not the exposure duration.
    @Test func exposureAndFocusHandlersGetAHostClockTimestamp() throws {
        let device = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back))
        let times = Locked<[CMTime]>([])
        let done = DispatchGroup()
        let before = CMClockGetTime(CMClockGetHostTimeClock())
        try device.lockForConfiguration()
        done.enter()
        device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 100), iso: 200) { time in
            times.withLock { $0.append(time) }; done.leave()
        }
        done.enter()
        device.setExposureTargetBias(1) { time in times.withLock { $0.append(time) }; done.leave() }
        done.enter()
        device.setFocusModeLocked(lensPosition: 0.5) { time in times.withLock { $0.append(time) }; done.leave() }
        device.unlockForConfiguration()
        #expect(done.wait(timeout: .now() + 30) == .success)
        let after = CMClockGetTime(CMClockGetHostTimeClock())
        let received = times.wrappedValue
        #expect(received.count == 3)
        for time in received {
            #expect(time.seconds >= before.seconds && time.seconds <= after.seconds,
                    "\(time.seconds) s is not between \(before.seconds) and \(after.seconds) on the host clock")
        }
    }
}
