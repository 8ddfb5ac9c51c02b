import Foundation
@testable import OpenCapture

/// A running session with its own simulated device, so tests never share camera state.
struct CaptureRig {
    let session: AVCaptureSession
    let device: AVCaptureDevice
    let output: AVCapturePhotoOutput

    init(_ type: AVCaptureDevice.DeviceType = .builtInWideAngleCamera, position: AVCaptureDevice.Position = .back,
         preset: AVCaptureSession.Preset = .low, lighting: SimulatedLighting = .indoor, seed: UInt64 = 7) {
        device = AVCaptureDevice.makeSimulatedDevice(type, position: position)!
        device.simulatedLighting = lighting
        device.simulationSeed = seed
        session = AVCaptureSession()
        output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try! AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
    }

    /// Captures with the async convenience API.
    func capture(_ settings: AVCapturePhotoSettings = AVCapturePhotoSettings()) async throws -> PhotoCaptureResult {
        try await output.capturePhotos(with: settings)
    }
}

/// Records every callback in order, on which queue it arrived, and the resolved-settings objects.
final class RecordingDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    enum Event: Equatable { case willBegin, willCapture, didCapture, didFinishProcessing, didFinishCapture }

    private let lock = NSLock()
    private(set) var events: [Event] = []
    private(set) var resolvedObjects: [AVCaptureResolvedPhotoSettings] = []
    private(set) var photos: [AVCapturePhoto] = []
    private(set) var errors: [Error] = []
    private(set) var onDelegateQueue = true
    private var continuation: CheckedContinuation<Void, Never>?
    private var finished = false
    let queueKey: DispatchSpecificKey<Bool>

    init(output: AVCapturePhotoOutput) {
        queueKey = output.delegateQueueKey
        super.init()
    }

    private func record(_ event: Event, _ resolved: AVCaptureResolvedPhotoSettings?) {
        lock.lock()
        events.append(event)
        if let resolved { resolvedObjects.append(resolved) }
        if DispatchQueue.getSpecific(key: queueKey) != true { onDelegateQueue = false }
        lock.unlock()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willBegin, resolvedSettings)
    }
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willCapture, resolvedSettings)
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.didCapture, resolvedSettings)
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        record(.didFinishProcessing, photo.resolvedSettings)
        lock.lock(); photos.append(photo); if let error { errors.append(error) }; lock.unlock()
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        record(.didFinishCapture, resolvedSettings)
        lock.lock()
        if let error { errors.append(error) }
        finished = true
        let c = continuation; continuation = nil
        lock.unlock()
        c?.resume()
    }

    /// Waits for didFinishCapture.
    func waitUntilFinished() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            lock.lock()
            if finished { lock.unlock(); c.resume() } else { continuation = c; lock.unlock() }
        }
    }
}

/// Mean of the BGRA buffer's green channel, 0…255.
func meanGreen(_ buffer: CVPixelBuffer) -> Double {
    let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
    let stride = CVPixelBufferGetBytesPerRow(buffer)
    let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
    var sum = 0.0
    for y in 0..<height { for x in 0..<width { sum += Double(base[y * stride + 4 * x + 1]) } }
    return sum / Double(width * height)
}

/// The BGRA bytes of a buffer, row by row without padding.
func bgraBytes(_ buffer: CVPixelBuffer) -> [UInt8] {
    let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
    let stride = CVPixelBufferGetBytesPerRow(buffer)
    let base = CVPixelBufferGetBaseAddress(buffer)!.assumingMemoryBound(to: UInt8.self)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height { bytes.append(contentsOf: UnsafeBufferPointer(start: base + y * stride, count: width * 4)) }
    return bytes
}

func bgraSettings() -> AVCapturePhotoSettings {
    AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
}
