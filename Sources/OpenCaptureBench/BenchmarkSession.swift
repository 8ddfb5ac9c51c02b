import Foundation
import OpenCapture

/// A running session on one simulated camera (the indoor scene at the photo preset unless asked otherwise), with a
/// photo output, as an app sets one up.
enum BenchmarkSession {
    static func start(_ type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position = .back,
                      preset: AVCaptureSession.Preset = .photo, lighting: SimulatedLighting = .indoor, seed: UInt64? = nil)
        throws -> (session: AVCaptureSession, device: AVCaptureDevice, output: AVCapturePhotoOutput)? {
        guard let device = AVCaptureDevice.makeSimulatedDevice(type, position: position) else { return nil }
        device.simulatedLighting = lighting
        if let seed { device.simulationSeed = seed }
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        return (session, device, output)
    }
}
