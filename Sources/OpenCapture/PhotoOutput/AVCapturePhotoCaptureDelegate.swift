import Foundation

/// Receives a photo request's progress and results (Apple's `AVCapturePhotoCaptureDelegate`).
/// Every method is optional (default implementations do nothing). For each accepted request,
/// `willBeginCaptureFor` comes first and `didFinishCaptureFor` last, exactly once; all callbacks
/// arrive on the output's serial delegate queue with the same resolved-settings object. A request
/// refused for its settings (where Apple raises) gets only `didFinishCaptureFor`, with the
/// `PhotoSettingsError` and resolved settings that carry its `uniqueID` and an `expectedPhotoCount` of 0.
/// Unlike Apple's output, OpenCapture cannot tell which methods a delegate implements, so a request whose
/// delegate lacks `didFinishProcessingPhoto` is not refused: its photos are made and dropped.
/// The output holds its delegate weakly: keep a strong reference until `didFinishCaptureFor`.
public protocol AVCapturePhotoCaptureDelegate: NSObjectProtocol {
    /// The settings are resolved; capture is about to start.
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The exposure starts (the shutter sound plays here on a phone).
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// The exposure is complete.
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// A photo is ready; called `expectedPhotoCount` times. `photo` is never nil, even with an error.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?)
    /// A deferred photo's proxy is ready, instead of `didFinishProcessingPhoto` for that photo (iOS 17). Never called
    /// here: deferred delivery is not simulated (`isAutoDeferredPhotoDeliverySupported` is false).
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?,
                     error: Error?)
    /// A Live Photo's movie media is captured (its post-roll has ended); the file is not written yet.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings)
    /// A Live Photo's movie file is complete: its length and where the still's moment falls in it; with `error` set
    /// nothing is left at `outputFileURL`.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL,
                     duration: CMTime, photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?)
    /// The request is complete; always last, exactly once, with the request's error if it failed.
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?)
}

extension AVCapturePhotoCaptureDelegate {
    public func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?,
                            error: Error?) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                            resolvedSettings: AVCaptureResolvedPhotoSettings) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL,
                            duration: CMTime, photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings,
                            error: Error?) {}
    public func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                            error: Error?) {}
}
