import Foundation
import OpenCapture

/// A running session on one simulated camera in the indoor scene at the photo preset, with a photo
/// output, as an app sets one up.
enum BenchmarkSession {
    static func start(_ type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position = .back)
        throws -> (session: AVCaptureSession, device: AVCaptureDevice, output: AVCapturePhotoOutput)? {
        guard let device = AVCaptureDevice.makeSimulatedDevice(type, position: position) else { return nil }
        device.simulatedLighting = .indoor
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        return (session, device, output)
    }
}
