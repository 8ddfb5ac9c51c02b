/*
 AVCam's photo capture delegate ("AVCam: Building a camera app", Apple sample code,
 PhotoCaptureProcessor.swift, iOS 13–16 revision), kept as close to the original as possible.
 Only Linux-impossible parts (Core Image) are removed, each marked `// Linux: removed …`; the
 Photos save compiles against OpenCapturePhotos (and CLLocation is its stand-in); AVFoundation API
 that OpenCapture lacks is marked `// MISSING in OpenCapture: …`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation
#if canImport(Photos)
import Photos
import CoreLocation
#else
import OpenCapturePhotos
#endif

class PhotoCaptureProcessor: NSObject {
    private(set) var requestedPhotoSettings: AVCapturePhotoSettings
    
    private let willCapturePhotoAnimation: () -> Void
    
    private let livePhotoCaptureHandler: (Bool) -> Void
    
    // Linux: removed `lazy var context = CIContext()` (Core Image)
    
    private let completionHandler: (PhotoCaptureProcessor) -> Void
    
    private let photoProcessingHandler: (Bool) -> Void
    
    // Test hook: AVCam declares this `private var`; `private(set)` lets the tests read it.
    private(set) var photoData: Data?
    
    private var livePhotoCompanionMovieURL: URL?
    
    private var portraitEffectsMatteData: Data?
    
    /// Test hook (AVCam goes on to encode it with Core Image): the matte as AVCam's code oriented it.
    private(set) var orientedPortraitEffectsMatte: CVPixelBuffer?
    
    private var semanticSegmentationMatteDataArray = [Data]()
    private var maxPhotoProcessingTime: CMTime?
    
    // Save the location of captured photos
    var location: CLLocation?
    
    init(with requestedPhotoSettings: AVCapturePhotoSettings,
         willCapturePhotoAnimation: @escaping () -> Void,
         livePhotoCaptureHandler: @escaping (Bool) -> Void,
         completionHandler: @escaping (PhotoCaptureProcessor) -> Void,
         photoProcessingHandler: @escaping (Bool) -> Void) {
        self.requestedPhotoSettings = requestedPhotoSettings
        self.willCapturePhotoAnimation = willCapturePhotoAnimation
        self.livePhotoCaptureHandler = livePhotoCaptureHandler
        self.completionHandler = completionHandler
        self.photoProcessingHandler = photoProcessingHandler
    }
    
    private func didFinish() {
        if let livePhotoCompanionMoviePath = livePhotoCompanionMovieURL?.path {
            if FileManager.default.fileExists(atPath: livePhotoCompanionMoviePath) {
                do {
                    try FileManager.default.removeItem(atPath: livePhotoCompanionMoviePath)
                } catch {
                    print("Could not remove file at url: \(livePhotoCompanionMoviePath)")
                }
            }
        }
        
        completionHandler(self)
    }
    
}

extension PhotoCaptureProcessor: AVCapturePhotoCaptureDelegate {
    /*
     This extension adopts all of the AVCapturePhotoCaptureDelegate protocol methods.
     */
    
    /// - Tag: WillBeginCapture
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        if resolvedSettings.livePhotoMovieDimensions.width > 0 && resolvedSettings.livePhotoMovieDimensions.height > 0 {
            livePhotoCaptureHandler(true)
        }
        maxPhotoProcessingTime = resolvedSettings.photoProcessingTimeRange.start + resolvedSettings.photoProcessingTimeRange.duration
    }
    
    /// - Tag: WillCapturePhoto
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        willCapturePhotoAnimation()
        
        guard let maxPhotoProcessingTime = maxPhotoProcessingTime else {
            return
        }
        
        // Show a spinner if processing time exceeds one second.
        let oneSecond = CMTime(seconds: 1, preferredTimescale: 1)
        if maxPhotoProcessingTime > oneSecond {
            photoProcessingHandler(true)
        }
    }
    
    // MISSING in OpenCapture: AVSemanticSegmentationMatte (class AVSemanticSegmentationMatte: NSObject, with struct MatteType: .hair/.skin/.teeth/.glasses), AVCapturePhoto.semanticSegmentationMatte(for semanticSegmentationMatteType: AVSemanticSegmentationMatte.MatteType) -> AVSemanticSegmentationMatte?, AVSemanticSegmentationMatte.applyingExifOrientation(_ exifOrientation: CGImagePropertyOrientation) -> AVSemanticSegmentationMatte, and enum CGImagePropertyOrientation: UInt32 (ImageIO, visible through import AVFoundation)
    // func handleMatteData(_ photo: AVCapturePhoto, ofType type: AVSemanticSegmentationMatte.MatteType) {
        
    //     // Find the semantic segmentation matte image for the specified type.
    //     guard var segmentationMatte = photo.semanticSegmentationMatte(for: type) else { return }
        
    //     // Retrieve the photo orientation and apply it to the matte image.
    //     if let orientation = photo.metadata[String(kCGImagePropertyOrientation)] as? UInt32,
    //         let exifOrientation = CGImagePropertyOrientation(rawValue: orientation) {
    //         // Apply the Exif orientation to the matte image.
    //         segmentationMatte = segmentationMatte.applyingExifOrientation(exifOrientation)
    //     }
        
    //     // Linux: removed the Core Image conversion of the matte (CIImage(cvImageBuffer:options:),
    //     // CIImageOption.auxiliarySemanticSegmentation*Matte, CGColorSpace, CIContext.heifRepresentation)
    //     // and the append to semanticSegmentationMatteDataArray.
    //     _ = segmentationMatte
    // }
    
    /// - Tag: DidFinishProcessingPhoto
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        photoProcessingHandler(false)
        
        if let error = error {
            print("Error capturing photo: \(error)")
        } else {
            photoData = photo.fileDataRepresentation()
        }
        // A portrait effects matte gets generated only if AVFoundation detects a face.
        if var portraitEffectsMatte = photo.portraitEffectsMatte {
            if let orientation = photo.metadata[ String(kCGImagePropertyOrientation) ] as? UInt32 {
                portraitEffectsMatte = portraitEffectsMatte.applyingExifOrientation(CGImagePropertyOrientation(rawValue: orientation)!)
            }
            let portraitEffectsMattePixelBuffer = portraitEffectsMatte.mattingImage
            // Linux: removed the Core Image HEIF encoding of the matte (CIImage(cvImageBuffer:options:),
            // CGColorSpace(name: CGColorSpace.sRGB), context.heifRepresentation(of:format:colorSpace:options:)).
            orientedPortraitEffectsMatte = portraitEffectsMattePixelBuffer
            portraitEffectsMatteData = nil
        } else {
            portraitEffectsMatteData = nil
        }
        
        // MISSING in OpenCapture: var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { get set } on AVCapturePhotoOutput
        // for semanticSegmentationType in output.enabledSemanticSegmentationMatteTypes {
        //     handleMatteData(photo, ofType: semanticSegmentationType)
        // }
    }
    
    /// - Tag: DidFinishRecordingLive
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL, resolvedSettings: AVCaptureResolvedPhotoSettings) {
        livePhotoCaptureHandler(false)
    }
    
    /// - Tag: DidFinishProcessingLive
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime, photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if error != nil {
            print("Error processing Live Photo companion movie: \(String(describing: error))")
            return
        }
        livePhotoCompanionMovieURL = outputFileURL
    }
    
    /// - Tag: DidFinishCapture
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error = error {
            print("Error capturing photo: \(error)")
            didFinish()
            return
        }
        
        guard let photoData = photoData else {
            print("No photo data resource")
            didFinish()
            return
        }
        
        PHPhotoLibrary.requestAuthorization { status in
            if status == .authorized {
                PHPhotoLibrary.shared().performChanges({
                    let options = PHAssetResourceCreationOptions()
                    let creationRequest = PHAssetCreationRequest.forAsset()
                    options.uniformTypeIdentifier = self.requestedPhotoSettings.processedFileType.map { $0.rawValue }
                    creationRequest.addResource(with: .photo, data: photoData, options: options)
                    
                    // Specify the location the photo was taken
                    creationRequest.location = self.location
                    
                    if let livePhotoCompanionMovieURL = self.livePhotoCompanionMovieURL {
                        let livePhotoCompanionMovieFileOptions = PHAssetResourceCreationOptions()
                        livePhotoCompanionMovieFileOptions.shouldMoveFile = true
                        creationRequest.addResource(with: .pairedVideo,
                                                    fileURL: livePhotoCompanionMovieURL,
                                                    options: livePhotoCompanionMovieFileOptions)
                    }
                    
                    // Save Portrait Effects Matte to Photos Library only if it was generated
                    if let portraitEffectsMatteData = self.portraitEffectsMatteData {
                        let creationRequest = PHAssetCreationRequest.forAsset()
                        creationRequest.addResource(with: .photo,
                                                    data: portraitEffectsMatteData,
                                                    options: nil)
                    }
                    // Save Portrait Effects Matte to Photos Library only if it was generated
                    for semanticSegmentationMatteData in self.semanticSegmentationMatteDataArray {
                        let creationRequest = PHAssetCreationRequest.forAsset()
                        creationRequest.addResource(with: .photo,
                                                    data: semanticSegmentationMatteData,
                                                    options: nil)
                    }
                    
                }, completionHandler: { _, error in
                    if let error = error {
                        print("Error occurred while saving photo to photo library: \(error)")
                    }
                    
                    self.didFinish()
                }
                )
            } else {
                self.didFinish()
            }
        }
    }
}

// iOS 17 revision of AVCam (deferred photo delivery) adds this callback.
// OpenCapture declares the proxy and the callback; deferred delivery is unsupported (`isAutoDeferredPhotoDeliverySupported`
// is false), so the callback never fires here.
extension PhotoCaptureProcessor {
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: Error?) {
        if let error = error {
            print("Error capturing deferred photo: \(error)")
            return
        }
        
        self.photoData = deferredPhotoProxy?.fileDataRepresentation()
    }
}
