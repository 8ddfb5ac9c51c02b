/// A stand-in for a photo whose processing is deferred until the app or the system asks for it (Apple's
/// `AVCaptureDeferredPhotoProxy`, iOS 17), delivered to `photoOutput(_:didFinishCapturingDeferredPhotoProxy:error:)`
/// instead of the photo; its `fileDataRepresentation()` is what an app saves as a `.photoProxy` resource.
///
/// Deferred photo delivery is not simulated yet: `AVCapturePhotoOutput.isAutoDeferredPhotoDeliverySupported` is false,
/// as on devices without it, so no proxy is ever made and every photo arrives processed through
/// `photoOutput(_:didFinishProcessingPhoto:error:)`. Declared so delegates written for iOS 17 compile.
///
/// `@unchecked Sendable`, as `AVCapturePhoto`: it adds no stored property.
public final class AVCaptureDeferredPhotoProxy: AVCapturePhoto, @unchecked Sendable {}
