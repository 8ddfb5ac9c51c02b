/*
 Live Photo capture as Apple's WWDC16 session 501 ("Advances in iOS Photography") shows it: enable
 Live Photo capture on the output when supported, give the settings a movie URL in the temporary
 folder, and hear both movie callbacks (the Swift 3 `capture(_:…)` names of the session are today's
 `photoOutput(_:…)`). The view-controller parts (the "LIVE" badge) are replaced by recorded events.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

final class LivePhotoCaptureSample: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards every mutable field.
    let lock = NSLock()
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private(set) var events: [String] = []
    private(set) var movieURL: URL?
    private(set) var movieDuration = CMTime.invalid
    private(set) var photoDisplayTime = CMTime.invalid
    private(set) var photoData: Data?
    var onFinish: (() -> Void)?

    /// Session set-up from the session: photo preset, a camera and the microphone, Live Photo on when supported.
    func configure() throws {
        session.beginConfiguration()
        session.sessionPreset = .photo
        let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back)!
        session.addInput(try AVCaptureDeviceInput(device: camera))
        if let microphone = AVCaptureDevice.default(for: .audio) {
            session.addInput(try AVCaptureDeviceInput(device: microphone))
        }
        session.addOutput(photoOutput)
        session.commitConfiguration()
        // Setup
        if photoOutput.isLivePhotoCaptureSupported {
            photoOutput.isLivePhotoCaptureEnabled = true
        }
    }

    // Capture
    func capture() {
        let photoSettings = AVCapturePhotoSettings()
        photoSettings.livePhotoMovieFileURL = URL(fileURLWithPath: NSTemporaryDirectory() + "\(UUID().uuidString).mov")
        photoOutput.capturePhoto(with: photoSettings, delegate: self)
    }

    private func note(_ event: String) { lock.withLock { events.append(event) } }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        // Show the "LIVE" badge when the resolved settings have a movie.
        note(resolvedSettings.livePhotoMovieDimensions.width > 0 ? "willBegin(live)" : "willBegin")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { photoData = photo.fileDataRepresentation() }
        note("photo")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings) {
        // Hide the "LIVE" badge: the movie's media is captured.
        note("didFinishRecordingLivePhotoMovie")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
                     photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error {
            print("Error processing Live Photo companion movie: \(error)")
            return
        }
        lock.withLock {
            movieURL = outputFileURL
            movieDuration = duration
            self.photoDisplayTime = photoDisplayTime
        }
        note("didFinishProcessingLivePhotoToMovieFile")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        note("didFinishCapture")
        onFinish?()
    }
}
