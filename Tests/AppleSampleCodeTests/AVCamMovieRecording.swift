/*
 AVCam's movie mode ("AVCam: Building a camera app", Apple sample code): toggleCaptureMode(_:) adding an
 AVCaptureMovieFileOutput with the `.high` preset, toggleMovieRecording(_:) with HEVC when available,
 and the AVCaptureFileOutputRecordingDelegate methods that save the movie to the photo library. UIKit
 parts are removed and marked `// Linux: removed …`; API OpenCapture lacks is marked `// MISSING in OpenCapture: …`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
#if canImport(Photos)
import Photos
#else
import OpenCapturePhotos
#endif
import Foundation

final class AVCamMovieRecording: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: every mutable field is touched on `sessionQueue` or, for the test hooks, before recording.
    let session: AVCaptureSession
    let photoOutput: AVCapturePhotoOutput
    let sessionQueue: DispatchQueue
    private(set) var movieFileOutput: AVCaptureMovieFileOutput?
    /// Test hooks: the recording's start and its saved outcome.
    var onStart: ((URL) -> Void)?
    var onSaved: ((URL, Bool) -> Void)?

    init(session: AVCaptureSession, photoOutput: AVCapturePhotoOutput, sessionQueue: DispatchQueue) {
        self.session = session
        self.photoOutput = photoOutput
        self.sessionQueue = sessionQueue
    }

    /// AVCam: `toggleCaptureMode(_:)` with the movie segment selected.
    func switchToMovieMode() {
        sessionQueue.async {
            let movieFileOutput = AVCaptureMovieFileOutput()
            
            if self.session.canAddOutput(movieFileOutput) {
                self.session.beginConfiguration()
                self.session.addOutput(movieFileOutput)
                self.session.sessionPreset = .high
                if let connection = movieFileOutput.connection(with: .video) {
                    if connection.isVideoStabilizationSupported {
                        connection.preferredVideoStabilizationMode = .auto
                    }
                }
                self.session.commitConfiguration()
                
                // Linux: removed DispatchQueue.main.async { captureModeControl.isEnabled = true }
                
                self.movieFileOutput = movieFileOutput
                
                // Linux: removed DispatchQueue.main.async { recordButton.isEnabled = true … }
            }
        }
    }

    /// AVCam: `toggleCaptureMode(_:)` with the photo segment selected.
    func switchToPhotoMode() {
        sessionQueue.async {
            // Remove the AVCaptureMovieFileOutput from the session because it doesn't support capture of Live Photos.
            self.session.beginConfiguration()
            self.session.removeOutput(self.movieFileOutput!)
            self.session.sessionPreset = .photo
            
            // Linux: removed DispatchQueue.main.async { captureModeControl.isEnabled = true }
            
            self.movieFileOutput = nil
            
            if self.photoOutput.isLivePhotoCaptureSupported {
                self.photoOutput.isLivePhotoCaptureEnabled = true
                // Linux: removed the Live Photo button update on the main queue.
            }
            self.session.commitConfiguration()
        }
    }

    /// AVCam: `toggleMovieRecording(_:)`.
    func toggleMovieRecording() {
        guard let movieFileOutput = self.movieFileOutput else {
            return
        }
        
        // Linux: removed disabling the record and camera buttons.
        // Linux: removed `previewView.videoPreviewLayer.connection?.videoOrientation` (no preview layer); portrait instead.
        let videoPreviewLayerOrientation: AVCaptureVideoOrientation? = .portrait
        
        sessionQueue.async {
            if !movieFileOutput.isRecording {
                // Linux: removed UIApplication.shared.beginBackgroundTask (no UIKit).
                
                // Update the orientation on the movie file output video connection before recording.
                let movieFileOutputConnection = movieFileOutput.connection(with: .video)
                movieFileOutputConnection?.videoOrientation = videoPreviewLayerOrientation!
                
                let availableVideoCodecTypes = movieFileOutput.availableVideoCodecTypes
                
                if availableVideoCodecTypes.contains(.hevc) {
                    movieFileOutput.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.hevc], for: movieFileOutputConnection!)
                }
                
                // Start recording video to a temporary file.
                let outputFileName = NSUUID().uuidString
                let outputFilePath = (NSTemporaryDirectory() as NSString).appendingPathComponent((outputFileName as NSString).appendingPathExtension("mov")!)
                movieFileOutput.startRecording(to: URL(fileURLWithPath: outputFilePath), recordingDelegate: self)
            } else {
                movieFileOutput.stopRecording()
            }
        }
    }

    /// - Tag: DidStartRecording
    func fileOutput(_ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]) {
        // Enable the Record button to let the user stop recording.
        // Linux: removed DispatchQueue.main.async { recordButton.isEnabled = true … }
        onStart?(fileURL)
    }
    
    /// - Tag: DidFinishRecording
    func fileOutput(_ output: AVCaptureFileOutput,
                    didFinishRecordingTo outputFileURL: URL,
                    from connections: [AVCaptureConnection],
                    error: Error?) {
        // Note: Because we use a unique file path for each recording, a new recording won't overwrite a recording mid-save.
        func cleanup() {
            let path = outputFileURL.path
            if FileManager.default.fileExists(atPath: path) {
                do {
                    try FileManager.default.removeItem(atPath: path)
                } catch {
                    print("Could not remove file at url: \(outputFileURL)")
                }
            }
            // Linux: removed UIApplication.shared.endBackgroundTask(currentBackgroundRecordingID).
        }
        
        var success = true
        
        if error != nil {
            print("Movie file finishing error: \(String(describing: error))")
            // Linux: AVCam reads `((error! as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as AnyObject).boolValue`;
            // `AnyObject` member lookup needs the Objective-C runtime, so the value is cast instead.
            success = ((error! as NSError).userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool) ?? false
        }
        
        if success {
            // Check the authorization status.
            PHPhotoLibrary.requestAuthorization { status in
                if status == .authorized {
                    // Save the movie file to the photo library and cleanup.
                    PHPhotoLibrary.shared().performChanges({
                        let options = PHAssetResourceCreationOptions()
                        options.shouldMoveFile = true
                        let creationRequest = PHAssetCreationRequest.forAsset()
                        creationRequest.addResource(with: .video, fileURL: outputFileURL, options: options)
                        
                        // Linux: removed `creationRequest.location = self.locationManager.location` (Core Location).
                    }, completionHandler: { success, error in
                        if !success {
                            print("AVCam couldn't save the movie to your photo library: \(String(describing: error))")
                        }
                        cleanup()
                        self.onSaved?(outputFileURL, success)
                    }
                    )
                } else {
                    cleanup()
                    self.onSaved?(outputFileURL, false)
                }
            }
        } else {
            cleanup()
            onSaved?(outputFileURL, false)
        }
        
        // Enable the Camera and Record buttons to let the user switch camera and start another recording.
        // Linux: removed DispatchQueue.main.async { … } (UIKit buttons).
    }
}
