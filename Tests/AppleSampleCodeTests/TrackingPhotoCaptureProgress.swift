/*
 Apple's "Tracking Photo Capture Progress" pattern (AVFoundation documentation): several captures
 may be in flight at once; each request gets its own delegate, kept alive in a dictionary keyed by
 the settings' uniqueID (the photo output holds delegates weakly) and dropped when
 photoOutput(_:didFinishCaptureFor:error:) arrives. The delegate follows each stage:
 settings resolved → exposure started → exposure complete → result delivery → capture complete.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

/// One request's delegate: records every stage it is told about.
final class PhotoCaptureProgressDelegate: NSObject, AVCapturePhotoCaptureDelegate {
    enum Stage: Equatable {
        case willBeginCapture, willCapturePhoto, didCapturePhoto
        case didFinishProcessingPhoto(photoCount: Int), didFinishCapture
    }
    
    let requestedPhotoSettings: AVCapturePhotoSettings
    private let lock = NSLock()
    private var _stages: [Stage] = []
    private var _resolvedSettingsSeen: [AVCaptureResolvedPhotoSettings] = []
    private var _photos: [AVCapturePhoto] = []
    private var _photoErrors: [Error?] = []
    private var _captureError: Error?
    private let completion: (PhotoCaptureProgressDelegate) -> Void
    
    init(settings: AVCapturePhotoSettings, completion: @escaping (PhotoCaptureProgressDelegate) -> Void) {
        self.requestedPhotoSettings = settings
        self.completion = completion
    }
    
    var stages: [Stage] { lock.lock(); defer { lock.unlock() }; return _stages }
    var resolvedSettingsSeen: [AVCaptureResolvedPhotoSettings] { lock.lock(); defer { lock.unlock() }; return _resolvedSettingsSeen }
    var photos: [AVCapturePhoto] { lock.lock(); defer { lock.unlock() }; return _photos }
    var photoErrors: [Error?] { lock.lock(); defer { lock.unlock() }; return _photoErrors }
    var captureError: Error? { lock.lock(); defer { lock.unlock() }; return _captureError }
    
    private func record(_ stage: Stage, _ resolved: AVCaptureResolvedPhotoSettings) {
        lock.lock(); _stages.append(stage); _resolvedSettingsSeen.append(resolved); lock.unlock()
    }
    
    // Settings resolved: the output has decided what it will deliver.
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willBeginCapture, resolvedSettings)
    }
    
    // Exposure started: play a shutter animation here.
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.willCapturePhoto, resolvedSettings)
    }
    
    // Exposure complete.
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        record(.didCapturePhoto, resolvedSettings)
    }
    
    // Result delivery: once per expected photo.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.lock(); _photos.append(photo); _photoErrors.append(error); lock.unlock()
        record(.didFinishProcessingPhoto(photoCount: photo.photoCount), photo.resolvedSettings)
    }
    
    // Capture complete: always last, exactly once.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        lock.lock(); _captureError = error; lock.unlock()
        record(.didFinishCapture, resolvedSettings)
        completion(self)
    }
}

/// A small camera model in the style of Apple's samples: one session, one photo output, and the
/// in-progress delegates dictionary.
final class MultiCaptureCamera {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    let sessionQueue = DispatchQueue(label: "multi-capture session queue")
    private(set) var videoDeviceInput: AVCaptureDeviceInput?
    
    var inProgressPhotoCaptureDelegates = [Int64: PhotoCaptureProgressDelegate]()
    var onCaptureFinished: ((PhotoCaptureProgressDelegate) -> Void)?
    
    /// `.vga640x480` or `.low` keep many captures cheap; `.photo` is 12 MP.
    func configure(preset: AVCaptureSession.Preset,
                   deviceType: AVCaptureDevice.DeviceType = .builtInWideAngleCamera,
                   position: AVCaptureDevice.Position = .back) throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = preset
        guard let device = AVCaptureDevice.default(deviceType, for: .video, position: position) else {
            throw CameraSetupError.noDevice
        }
        let input = try AVCaptureDeviceInput(device: device)
        guard session.canAddInput(input) else { throw CameraSetupError.cannotAddInput }
        session.addInput(input)
        videoDeviceInput = input
        guard session.canAddOutput(photoOutput) else { throw CameraSetupError.cannotAddOutput }
        session.addOutput(photoOutput)
        photoOutput.maxPhotoQualityPrioritization = .quality
    }
    
    enum CameraSetupError: Error { case noDevice, cannotAddInput, cannotAddOutput }
    
    /// Fresh settings for every shot (settings may never be reused).
    func makeSettings() -> AVCapturePhotoSettings {
        let photoSettings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        photoSettings.maxPhotoDimensions = photoOutput.maxPhotoDimensions
        photoSettings.photoQualityPrioritization = .speed
        return photoSettings
    }
    
    /// Starts one capture and keeps its delegate alive until it finishes. Call on `sessionQueue`.
    @discardableResult
    func capture(with photoSettings: AVCapturePhotoSettings) -> PhotoCaptureProgressDelegate {
        let delegate = PhotoCaptureProgressDelegate(settings: photoSettings) { delegate in
            self.sessionQueue.async {
                self.inProgressPhotoCaptureDelegates[delegate.requestedPhotoSettings.uniqueID] = nil
                self.onCaptureFinished?(delegate)
            }
        }
        inProgressPhotoCaptureDelegates[photoSettings.uniqueID] = delegate
        photoOutput.capturePhoto(with: photoSettings, delegate: delegate)
        return delegate
    }
}
