/*
 The session and photo-capture parts of AVCam's CameraViewController ("AVCam: Building a camera
 app", Apple sample code, iOS 13–16 revision): configureSession() and capturePhoto(_:), kept as
 close to the original as possible. The view controller becomes a plain class (no UIKit on Linux);
 UI work is removed and marked `// Linux: removed …`. AVFoundation API that OpenCapture lacks is
 left commented with `// MISSING in OpenCapture: …`.
*/

#if canImport(AVFoundation)
import AVFoundation
#else
import OpenCapture
#endif
import Foundation

// Linux: removed `UIViewController` superclass, outlets, preview view, spinner, KVO and UI state.
final class AVCamCameraController {
    
    // MARK: Session Management
    
    enum SessionSetupResult {
        case success
        case notAuthorized
        case configurationFailed
    }
    
    let session = AVCaptureSession()
    var isSessionRunning = false
    // MISSING in OpenCapture: AVSemanticSegmentationMatte.MatteType (struct MatteType: Hashable, Equatable, RawRepresentable, rawValue String)
    // var selectedSemanticSegmentationMatteTypes = [AVSemanticSegmentationMatte.MatteType]()
    
    // Communicate with the session and other session objects on this queue.
    let sessionQueue = DispatchQueue(label: "session queue")
    
    var setupResult: SessionSetupResult = .success
    
    // Linux: removed `@objc dynamic` (no Objective-C runtime for KVO on Linux)
    var videoDeviceInput: AVCaptureDeviceInput!
    
    /// Test hook (AVCam hard-codes `.photo`): the preset configureSession() sets, so multi-capture tests can use a small one.
    let preferredSessionPreset: AVCaptureSession.Preset
    
    init(sessionPreset: AVCaptureSession.Preset = .photo) {
        self.preferredSessionPreset = sessionPreset
    }
    
    // From AVCam's viewDidLoad: check the video authorization status.
    func checkAuthorization() {
        switch AVCaptureDevice.authorizationStatus(for: .video) {
        case .authorized:
            // The user has previously granted access to the camera.
            break
            
        case .notDetermined:
            /*
             The user has not yet been presented with the option to grant
             video access. Suspend the session queue to delay session
             setup until the access request has completed.
             */
            sessionQueue.suspend()
            AVCaptureDevice.requestAccess(for: .video, completionHandler: { granted in
                if !granted {
                    self.setupResult = .notAuthorized
                }
                self.sessionQueue.resume()
            })
            
        default:
            // The user has previously denied access.
            setupResult = .notAuthorized
        }
    }
    
    // Call this on the session queue.
    /// - Tag: ConfigureSession
    func configureSession() {
        if setupResult != .success {
            return
        }
        
        session.beginConfiguration()
        
        /*
         Do not create an AVCaptureMovieFileOutput when setting up the session because
         Live Photo is not supported when AVCaptureMovieFileOutput is added to the session.
         */
        session.sessionPreset = preferredSessionPreset // AVCam: `.photo`
        
        // Add video input.
        do {
            var defaultVideoDevice: AVCaptureDevice?
            
            // Choose the back dual camera, if available, otherwise default to a wide angle camera.
            
            if let dualCameraDevice = AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back) {
                defaultVideoDevice = dualCameraDevice
            } else if let dualWideCameraDevice = AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back) {
                // If a rear dual camera is not available, default to the rear dual wide camera.
                defaultVideoDevice = dualWideCameraDevice
            } else if let backCameraDevice = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) {
                // If a rear dual wide camera is not available, default to the rear wide angle camera.
                defaultVideoDevice = backCameraDevice
            } else if let frontCameraDevice = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front) {
                // If the rear wide angle camera isn't available, default to the front wide angle camera.
                defaultVideoDevice = frontCameraDevice
            }
            guard let videoDevice = defaultVideoDevice else {
                print("Default video device is unavailable.")
                setupResult = .configurationFailed
                session.commitConfiguration()
                return
            }
            let videoDeviceInput = try AVCaptureDeviceInput(device: videoDevice)
            
            if session.canAddInput(videoDeviceInput) {
                session.addInput(videoDeviceInput)
                self.videoDeviceInput = videoDeviceInput
                
                // Linux: removed DispatchQueue.main.async { … previewView.videoPreviewLayer.connection?.videoOrientation = … }
                // (AVCaptureVideoPreviewLayer is a Core Animation layer; UIKit window orientation).
            } else {
                print("Couldn't add video device input to the session.")
                setupResult = .configurationFailed
                session.commitConfiguration()
                return
            }
        } catch {
            print("Couldn't create video device input: \(error)")
            setupResult = .configurationFailed
            session.commitConfiguration()
            return
        }
        
        // Add an audio input device.
        do {
            let audioDevice = AVCaptureDevice.default(for: .audio)
            let audioDeviceInput = try AVCaptureDeviceInput(device: audioDevice!)
            
            if session.canAddInput(audioDeviceInput) {
                session.addInput(audioDeviceInput)
            } else {
                print("Could not add audio device input to the session")
            }
        } catch {
            print("Could not create audio device input: \(error)")
        }
        
        // Add the photo output.
        if session.canAddOutput(photoOutput) {
            session.addOutput(photoOutput)
            
            photoOutput.isHighResolutionCaptureEnabled = true
            photoOutput.isLivePhotoCaptureEnabled = photoOutput.isLivePhotoCaptureSupported
            photoOutput.isDepthDataDeliveryEnabled = photoOutput.isDepthDataDeliverySupported
            photoOutput.isPortraitEffectsMatteDeliveryEnabled = photoOutput.isPortraitEffectsMatteDeliverySupported
            // MISSING in OpenCapture: var enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { get set } and var availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { get } on AVCapturePhotoOutput
            // photoOutput.enabledSemanticSegmentationMatteTypes = photoOutput.availableSemanticSegmentationMatteTypes
            // MISSING in OpenCapture: AVCapturePhotoOutput.availableSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType]
            // selectedSemanticSegmentationMatteTypes = photoOutput.availableSemanticSegmentationMatteTypes
            photoOutput.maxPhotoQualityPrioritization = .quality
            livePhotoMode = photoOutput.isLivePhotoCaptureSupported ? .on : .off
            depthDataDeliveryMode = photoOutput.isDepthDataDeliverySupported ? .on : .off
            portraitEffectsMatteDeliveryMode = photoOutput.isPortraitEffectsMatteDeliverySupported ? .on : .off
            photoQualityPrioritizationMode = .balanced
            
        } else {
            print("Could not add photo output to the session")
            setupResult = .configurationFailed
            session.commitConfiguration()
            return
        }
        
        session.commitConfiguration()
    }
    
    // From AVCam's viewWillAppear: start the session on the session queue.
    func startSession() {
        sessionQueue.async {
            switch self.setupResult {
            case .success:
                // Only setup observers and start the session if setup succeeded.
                // Linux: removed addObservers() (KVO/NotificationCenter UI updates).
                self.session.startRunning()
                self.isSessionRunning = self.session.isRunning
                
            case .notAuthorized, .configurationFailed:
                // Linux: removed the UIAlertController.
                break
            }
        }
    }
    
    // MARK: Capturing Photos
    
    let photoOutput = AVCapturePhotoOutput()
    
    var inProgressPhotoCaptureDelegates = [Int64: PhotoCaptureProcessor]()
    
    /// Test hook: AVCam's UI reactions (flash animation, spinner), recorded instead of drawn.
    var onWillCapturePhotoAnimation: (() -> Void)?
    var onPhotoProcessing: ((Bool) -> Void)?
    var onProcessorCompleted: ((PhotoCaptureProcessor) -> Void)?
    
    /// - Tag: CapturePhoto
    func capturePhoto() { // AVCam: `@IBAction private func capturePhoto(_ photoButton: UIButton)`
        /*
         Retrieve the video preview layer's video orientation on the main queue before
         entering the session queue. Do this to ensure that UI elements are accessed on
         the main thread and session configuration is done on the session queue.
         */
        // Linux: removed `previewView.videoPreviewLayer.connection?.videoOrientation` (no preview layer); portrait instead.
        let videoPreviewLayerOrientation: AVCaptureVideoOrientation? = .portrait
        
        sessionQueue.async {
            if let photoOutputConnection = self.photoOutput.connection(with: .video) {
                photoOutputConnection.videoOrientation = videoPreviewLayerOrientation!
            }
            var photoSettings = AVCapturePhotoSettings()
            
            // Capture HEIF photos when supported. Enable auto-flash and high-resolution photos.
            if  self.photoOutput.availablePhotoCodecTypes.contains(.hevc) {
                photoSettings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            }
            
            if self.videoDeviceInput.device.isFlashAvailable {
                photoSettings.flashMode = .auto
            }
            
            photoSettings.isHighResolutionPhotoEnabled = true
            if !photoSettings.__availablePreviewPhotoPixelFormatTypes.isEmpty {
                photoSettings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: photoSettings.__availablePreviewPhotoPixelFormatTypes.first!]
            }
            // Live Photo capture is not supported in movie mode.
            if self.livePhotoMode == .on && self.photoOutput.isLivePhotoCaptureSupported {
                let livePhotoMovieFileName = NSUUID().uuidString
                let livePhotoMovieFilePath = (NSTemporaryDirectory() as NSString).appendingPathComponent((livePhotoMovieFileName as NSString).appendingPathExtension("mov")!)
                photoSettings.livePhotoMovieFileURL = URL(fileURLWithPath: livePhotoMovieFilePath)
            }
            
            photoSettings.isDepthDataDeliveryEnabled = (self.depthDataDeliveryMode == .on
                && self.photoOutput.isDepthDataDeliveryEnabled)
            
            photoSettings.isPortraitEffectsMatteDeliveryEnabled = (self.portraitEffectsMatteDeliveryMode == .on
                && self.photoOutput.isPortraitEffectsMatteDeliveryEnabled)
            
            // MISSING in OpenCapture: AVCapturePhotoOutput.availableSemanticSegmentationMatteTypes and AVCapturePhotoSettings.enabledSemanticSegmentationMatteTypes: [AVSemanticSegmentationMatte.MatteType] { get set }
            // if photoSettings.isDepthDataDeliveryEnabled {
            //     if !self.photoOutput.availableSemanticSegmentationMatteTypes.isEmpty {
            //         photoSettings.enabledSemanticSegmentationMatteTypes = self.selectedSemanticSegmentationMatteTypes
            //     }
            // }
            
            photoSettings.photoQualityPrioritization = self.photoQualityPrioritizationMode
            
            let photoCaptureProcessor = PhotoCaptureProcessor(with: photoSettings, willCapturePhotoAnimation: {
                // Flash the screen to signal that AVCam took a photo.
                // Linux: removed DispatchQueue.main.async { previewView.videoPreviewLayer.opacity … UIView.animate … }
                self.onWillCapturePhotoAnimation?()
            }, livePhotoCaptureHandler: { capturing in
                self.sessionQueue.async {
                    if capturing {
                        self.inProgressLivePhotoCapturesCount += 1
                    } else {
                        self.inProgressLivePhotoCapturesCount -= 1
                    }
                    
                    // Linux: removed the "Live" badge UI update on the main queue.
                }
            }, completionHandler: { photoCaptureProcessor in
                // When the capture is complete, remove a reference to the photo capture delegate so it can be deallocated.
                self.sessionQueue.async {
                    self.inProgressPhotoCaptureDelegates[photoCaptureProcessor.requestedPhotoSettings.uniqueID] = nil
                    self.onProcessorCompleted?(photoCaptureProcessor)
                }
            }, photoProcessingHandler: { animate in
                // Animates a spinner while photo is processing
                // Linux: removed DispatchQueue.main.async { spinner.startAnimating()/stopAnimating() } (UIKit)
                self.onPhotoProcessing?(animate)
            }
            )
            
            // Specify the location the photo was taken
            // Linux: removed `photoCaptureProcessor.location = self.locationManager.location` (Core Location)
            
            // The photo output holds a weak reference to the photo capture delegate and stores it in an array to maintain a strong reference.
            self.inProgressPhotoCaptureDelegates[photoCaptureProcessor.requestedPhotoSettings.uniqueID] = photoCaptureProcessor
            self.photoOutput.capturePhoto(with: photoSettings, delegate: photoCaptureProcessor)
        }
    }
    
    enum LivePhotoMode {
        case on
        case off
    }
    
    enum DepthDataDeliveryMode {
        case on
        case off
    }
    
    enum PortraitEffectsMatteDeliveryMode {
        case on
        case off
    }
    
    private var livePhotoMode: LivePhotoMode = .off
    
    private var depthDataDeliveryMode: DepthDataDeliveryMode = .off
    
    private var portraitEffectsMatteDeliveryMode: PortraitEffectsMatteDeliveryMode = .off
    
    private var photoQualityPrioritizationMode: AVCapturePhotoOutput.QualityPrioritization = .balanced
    
    var inProgressLivePhotoCapturesCount = 0
}
