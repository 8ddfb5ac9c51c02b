import CaptureCore
import CaptureEngine
import Foundation

/// Turns one request's engine events into Apple's delegate callbacks, on the output's serial
/// queue, in Apple's order: willBeginCapture → willCapturePhoto → didCapturePhoto →
/// didFinishProcessingPhoto × expectedPhotoCount → didFinishCapture. Builds the
/// `AVCaptureResolvedPhotoSettings` once, so every callback gets the same instance, and wraps each
/// native photo as an `AVCapturePhoto`.
final class PhotoDeliveryAdapter: Sendable {
    private let output: AVCapturePhotoOutput
    private let delegate: WeakDelegate
    private let settings: AVCapturePhotoSettings
    private let deviceType: AVCaptureDevice.DeviceType
    /// Set by the `.resolved` event, read by every later one.
    private let resolved = Locked<AVCaptureResolvedPhotoSettings?>(nil)

    init(output: AVCapturePhotoOutput, delegate: AVCapturePhotoCaptureDelegate, settings: AVCapturePhotoSettings,
         deviceType: AVCaptureDevice.DeviceType) {
        self.output = output
        self.delegate = WeakDelegate(delegate)
        self.settings = settings
        self.deviceType = deviceType
    }

    /// A refused request: no capture, only `didFinishCapture` with the error.
    func refuse(_ error: Error) {
        let resolved = AVCaptureResolvedPhotoSettings(uniqueID: settings.uniqueID, expectedPhotoCount: 0)
        post { $0.photoOutput($1, didFinishCaptureFor: resolved, error: error) }
    }

    /// Handles one engine event (called on the engine's queues, in order).
    func handle(_ event: CaptureEvent) {
        switch event {
        case .resolved(let native):
            let long = native.flash || native.stillImageStabilization || settings is AVCapturePhotoBracketSettings
            output.updateReadiness { $0.planned(settings.uniqueID, long: long) }
            let resolved = Self.resolvedSettings(native)
            self.resolved.wrappedValue = resolved
            post { $0.photoOutput($1, willBeginCaptureFor: resolved) }
        case .exposureStarted:
            let resolved = current
            post { $0.photoOutput($1, willCapturePhotoFor: resolved) }
        case .exposureFinished:
            output.updateReadiness { $0.captured(settings.uniqueID) }
            let resolved = current
            post { $0.photoOutput($1, didCapturePhotoFor: resolved) }
        case .photo(let native, let error):
            let photo = makePhoto(native)
            post { $0.photoOutput($1, didFinishProcessingPhoto: photo, error: error) }
        case .livePhotoRecorded(let url):
            let resolved = current
            post { $0.photoOutput($1, didFinishRecordingLivePhotoMovieForEventualFileAt: url, resolvedSettings: resolved) }
        case .livePhotoMovie(let movie):
            let resolved = current
            let duration = CMTime(seconds: movie.duration, preferredTimescale: 600)
            let display = CMTime(seconds: movie.photoDisplayTime, preferredTimescale: 600)
            // As the movie file output reports it: an AVError (a file already at the URL is never replaced, and a failed
            // movie leaves nothing under its name, so a file there means it was there before).
            let error = movie.error.map { failure -> Error in
                let exists = FileManager.default.fileExists(atPath: movie.url.path)
                return AVError(exists ? .fileAlreadyExists : .noDataCaptured,
                               userInfo: [NSLocalizedDescriptionKey: exists ? "\(movie.url.path) already exists" : "\(failure)",
                                          NSUnderlyingErrorKey: failure as NSError])
            }
            post {
                $0.photoOutput($1, didFinishProcessingLivePhotoToMovieFileAt: movie.url, duration: duration, photoDisplayTime: display,
                               resolvedSettings: resolved, error: error)
            }
        case .finished(let error):
            output.updateReadiness { $0.finished(settings.uniqueID) }
            let resolved = current
            post { $0.photoOutput($1, didFinishCaptureFor: resolved, error: error) }
        }
    }

    private var current: AVCaptureResolvedPhotoSettings {
        resolved.wrappedValue ?? AVCaptureResolvedPhotoSettings(uniqueID: settings.uniqueID)
    }

    private func post(_ callback: @escaping @Sendable (AVCapturePhotoCaptureDelegate, AVCapturePhotoOutput) -> Void) {
        let output = output, delegate = delegate
        output.delegateQueue.async {
            if let target = delegate.value { callback(target, output) }
        }
    }

    private func makePhoto(_ native: CapturedPhoto) -> AVCapturePhoto {
        let bracket = (settings as? AVCapturePhotoBracketSettings)?.bracketedSettings
        // The resolved format: the request's with the size the thumbnail really has (fitted to the photo's shape).
        func resolved(_ format: [String: Any]?, _ size: CMVideoDimensions) -> [String: Any]? {
            guard var format, size.width > 0, size.height > 0 else { return nil }
            format[AVVideoWidthKey] = Int(size.width)
            format[AVVideoHeightKey] = Int(size.height)
            return format
        }
        let thumbnailFormat = native.isRaw
            ? resolved(settings.rawEmbeddedThumbnailPhotoFormat, current.rawEmbeddedThumbnailDimensions)
            : resolved(settings.embeddedThumbnailPhotoFormat, current.embeddedThumbnailDimensions)
        let truth = native.groundTruth
        return AVCapturePhoto(
            timestamp: native.timestamp.map { CMTime(seconds: $0, preferredTimescale: 1_000_000_000) } ?? .invalid,
            resolvedSettings: current, photoCount: native.photoCount, isRawPhoto: native.isRaw,
            fileData: native.fileData, fileDataProvider: native.fileDataProvider, pixelBuffer: native.pixelBuffer,
            previewPixelBuffer: native.preview, embeddedThumbnailPhotoFormat: thumbnailFormat,
            metadata: PhotoMetadataDictionary.make(native.exif, overrides: settings.metadata), sourceDeviceType: deviceType,
            bracketSettings: native.bracketIndex.flatMap { index in bracket.map { $0[index] } },
            sequenceCount: native.bracketIndex.map { $0 + 1 } ?? 0,
            lensStabilizationStatus: Self.status(native.lensStabilization),
            depthData: native.depth.flatMap { map in
                AVDepthData(depthMap: map, pixelFormat: native.depthPixelFormat?.rawValue ?? kCVPixelFormatType_DisparityFloat16)
            },
            portraitEffectsMatte: native.matte.flatMap(AVPortraitEffectsMatte.init(matte:)),
            cameraCalibrationData: native.calibration.map(AVCameraCalibrationData.init(calibration:)),
            groundTruth: {
                truth().map { SimulationGroundTruth(width: $0.width, height: $0.height, linearSRGB: $0.linearSRGB, depth: $0.depth,
                                                      baselineExposure: $0.baselineExposure) }
            })
    }

    static func resolvedSettings(_ r: ResolvedCapture) -> AVCaptureResolvedPhotoSettings {
        func dimensions(_ size: Size?) -> CMVideoDimensions {
            CMVideoDimensions(width: Int32(size?.width ?? 0), height: Int32(size?.height ?? 0))
        }
        let fastest = r.processingTime.lowerBound, slowest = r.processingTime.upperBound
        return AVCaptureResolvedPhotoSettings(
            uniqueID: r.id, photoDimensions: dimensions(r.photoSize), rawPhotoDimensions: dimensions(r.rawPhotoSize),
            previewDimensions: dimensions(r.previewSize), embeddedThumbnailDimensions: dimensions(r.thumbnailSize),
            rawEmbeddedThumbnailDimensions: dimensions(r.rawThumbnailSize),
            livePhotoMovieDimensions: dimensions(r.livePhotoMovieSize),
            portraitEffectsMatteDimensions: dimensions(r.matteSize), depthDataDimensions: dimensions(r.depthSize),
            isFlashEnabled: r.flash,
            isRedEyeReductionEnabled: r.redEyeReduction, isStillImageStabilizationEnabled: r.stillImageStabilization,
            expectedPhotoCount: r.expectedPhotoCount,
            photoProcessingTimeRange: CMTimeRange(start: CMTime(seconds: fastest, preferredTimescale: 1_000_000),
                                                  duration: CMTime(seconds: slowest - fastest, preferredTimescale: 1_000_000)))
    }

    static func status(_ lens: LensStabilization) -> AVCaptureDevice.LensStabilizationStatus {
        switch lens {
        case .unsupported: return .unsupported
        case .off: return .off
        case .active: return .active
        }
    }
}
