import CameraSimulation
import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// A running session warms up as a phone's camera does: auto focus and the scene render for a default photo happen
/// before the first request, in the background.
@Suite struct WarmUpTests {
    @Test func startRunningFocusesAndRendersBeforeAnyRequest() throws {
        let rig = CaptureRig(preset: .vga640x480)   // waits for the warm-up
        let size = rig.device.module.readoutSize(forPhoto: Size(width: 640, height: 480))
        #expect(rig.device.camera.isPrepared(size: size))
        let found = rig.device.withFocusState { $0.found[rig.device.module.name] != nil }
        #expect(found, "auto focus ran at startRunning")
        #expect(!rig.device.isAdjustingFocus)
    }

    @Test func aNewPresetWhileRunningWarmsUpForItsSize() throws {
        let rig = CaptureRig(preset: .vga640x480)
        rig.session.sessionPreset = .cif352x288
        rig.output.waitUntilWarmedUp()
        let size = rig.device.module.readoutSize(forPhoto: Size(width: 352, height: 288))
        #expect(rig.device.camera.isPrepared(size: size))
    }

    @Test func aSessionThatIsNotRunningDoesNotWarmUp() throws {
        let device = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back))
        let session = AVCaptureSession(), output = AVCapturePhotoOutput()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        output.waitUntilWarmedUp()
        let size = device.module.readoutSize(forPhoto: Size(width: 640, height: 480))
        #expect(!device.camera.isPrepared(size: size))
    }
}
