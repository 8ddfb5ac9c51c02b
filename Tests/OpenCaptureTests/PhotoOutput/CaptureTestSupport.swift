import CaptureCore
import Foundation
import ImagePipeline
@testable import OpenCapture

/// A running session with its own simulated device, so tests never share camera state.
struct CaptureRig {
    let session: AVCaptureSession
    let device: AVCaptureDevice
    let output: AVCapturePhotoOutput

    init(_ type: AVCaptureDevice.DeviceType = .builtInWideAngleCamera, position: AVCaptureDevice.Position = .back,
         preset: AVCaptureSession.Preset = .low, lighting: SimulatedLighting = .indoor, seed: UInt64 = 7,
         wideColor: Bool = true) {
        device = AVCaptureDevice.makeSimulatedDevice(type, position: position)!
        device.simulatedLighting = lighting
        device.simulationSeed = seed
        session = AVCaptureSession()
        output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.automaticallyConfiguresCaptureDeviceForWideColor = wideColor
        session.addInput(try! AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        // The session warms up (auto focus, the render) in the background; tests start from a settled camera.
        output.waitUntilWarmedUp()
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
    /// Called with the request's uniqueID at willBeginCapture (set before capturing).
    var onBegin: (@Sendable (Int64) -> Void)?

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
        onBegin?(resolvedSettings.uniqueID)
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

/// The photo's BGRA pixels as an RGB raster.
func rgbRaster(_ buffer: CVPixelBuffer) -> Raster<UInt8> {
    let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
    let bytes = bgraBytes(buffer)
    var rgb = Raster<UInt8>(width: width, height: height, channels: 3)
    for i in 0..<(width * height) {
        rgb.storage[3 * i] = bytes[4 * i + 2]
        rgb.storage[3 * i + 1] = bytes[4 * i + 1]
        rgb.storage[3 * i + 2] = bytes[4 * i]
    }
    return rgb
}

/// The ISP that renders ground truth the way the photo was rendered (sRGB or Display P3, from its EXIF ColorSpace).
func referenceISP(for photo: AVCapturePhoto) -> ImageSignalProcessor {
    var settings = ISPSettings()
    let exif = photo.metadata[kCGImagePropertyExifDictionary] as? [String: Any]
    settings.colorSpace = (exif?[kCGImagePropertyExifColorSpace] as? Int) == 0xFFFF ? .displayP3 : .sRGB
    return ImageSignalProcessor(settings: settings)
}

/// CPSNR of a BGRA photo against the ISP's rendering of the simulator's ground truth.
func cpsnrAgainstGroundTruth(_ photo: AVCapturePhoto) -> Double? {
    guard let buffer = photo.pixelBuffer, let truth = photo.simulationGroundTruth() else { return nil }
    let linear = Raster<Float>(width: truth.width, height: truth.height, channels: 3, storage: truth.linearSRGB)
    return ImageQuality.cpsnr(rgbRaster(buffer), referenceISP(for: photo).renderReference(linear, baselineExposure: truth.baselineExposure),
                              border: 4)
}

/// RMS error of a BGRA photo against the ground-truth rendering, over pixels where that rendering
/// is flat (7×7 range ≤ 2 levels in every channel): there the error is noise, not demosaic or detail error.
func flatRegionNoise(_ photo: AVCapturePhoto) -> (rms: Double, pixels: Int)? {
    guard let buffer = photo.pixelBuffer, let truth = photo.simulationGroundTruth() else { return nil }
    let linear = Raster<Float>(width: truth.width, height: truth.height, channels: 3, storage: truth.linearSRGB)
    let reference = referenceISP(for: photo).renderReference(linear, baselineExposure: truth.baselineExposure)
    let image = rgbRaster(buffer)
    var sum = 0.0, count = 0
    for y in 3..<(image.height - 3) {
        for x in 3..<(image.width - 3) {
            var flat = true
            for c in 0..<3 where flat {
                var lo = UInt8.max, hi = UInt8.min
                for dy in -3...3 { for dx in -3...3 { let v = reference[x + dx, y + dy, c]; lo = min(lo, v); hi = max(hi, v) } }
                flat = hi - lo <= 2 && hi < 250 && lo > 5
            }
            guard flat else { continue }
            for c in 0..<3 { let d = Double(image[x, y, c]) - Double(reference[x, y, c]); sum += d * d }
            count += 3
        }
    }
    return count == 0 ? nil : ((sum / Double(count)).squareRoot(), count / 3)
}

/// Counts notifications (their blocks run on the posting thread).
final class NotificationCounter: @unchecked Sendable {
    private let lock = NSLock()   // guards `count`
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
