import Foundation

/// The error domain of AVFoundation errors (AVError.h `AVFoundationErrorDomain`).
public let AVFoundationErrorDomain: String = "AVFoundationErrorDomain"

/// An AVFoundation error: a `Code` plus a user-info dictionary, bridged to `NSError` in
/// `AVFoundationErrorDomain` (AVError.h `AVError`).
public struct AVError: CustomNSError, Hashable, Sendable {
    /// The underlying `NSError`.
    public let _nsError: NSError

    /// Wraps an `NSError`; its code should be an `AVError.Code` raw value.
    public init(_nsError: NSError) { self._nsError = _nsError }

    /// An error with `code` and optional user info.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        _nsError = NSError(domain: AVFoundationErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// `AVFoundationErrorDomain`.
    public static var errorDomain: String { AVFoundationErrorDomain }

    /// The error code; `.unknown` if the wrapped code is not one of `Code`.
    public var code: Code { Code(rawValue: _nsError.code) ?? .unknown }
    /// The numeric code.
    public var errorCode: Int { _nsError.code }
    /// The user-info dictionary.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }
    /// The user-info dictionary (same as `errorUserInfo`).
    public var userInfo: [String: Any] { _nsError.userInfo }

    /// `AVErrorTimeKey`: the time in the user info, if any.
    public var time: CMTime? { _nsError.userInfo[AVErrorTimeKey] as? CMTime }
    /// `AVErrorRecordingSuccessfullyFinishedKey`: whether the recording finished despite the error.
    public var recordingSuccessfullyFinished: Bool? { _nsError.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool }
    /// `AVErrorMediaTypeKey`: the media type in the user info, if any.
    public var mediaType: AVMediaType? {
        (_nsError.userInfo[AVErrorMediaTypeKey] as? String).map(AVMediaType.init(rawValue:))
    }
    /// `AVErrorFileTypeKey`: the file type in the user info, if any.
    public var fileType: AVFileType? {
        (_nsError.userInfo[AVErrorFileTypeKey] as? String).map(AVFileType.init(rawValue:))
    }

    public static func == (lhs: AVError, rhs: AVError) -> Bool { lhs._nsError.isEqual(rhs._nsError) }
    public func hash(into hasher: inout Hasher) { hasher.combine(_nsError) }

    /// AVFoundation error codes (AVError.h `AVError.Code`).
    public enum Code: Int, Sendable {
        case unknown = -11800
        case outOfMemory = -11801
        case sessionNotRunning = -11803
        case deviceAlreadyUsedByAnotherSession = -11804
        case noDataCaptured = -11805
        case sessionConfigurationChanged = -11806
        case diskFull = -11807
        case deviceWasDisconnected = -11808
        case mediaChanged = -11809
        case maximumDurationReached = -11810
        case maximumFileSizeReached = -11811
        case mediaDiscontinuity = -11812
        case maximumNumberOfSamplesForFileFormatReached = -11813
        case deviceNotConnected = -11814
        case deviceInUseByAnotherApplication = -11815
        case deviceLockedForConfigurationByAnotherProcess = -11817
        case sessionWasInterrupted = -11818
        case mediaServicesWereReset = -11819
        case exportFailed = -11820
        case decodeFailed = -11821
        case invalidSourceMedia = -11822
        case fileAlreadyExists = -11823
        case compositionTrackSegmentsNotContiguous = -11824
        case invalidCompositionTrackSegmentDuration = -11825
        case invalidCompositionTrackSegmentSourceStartTime = -11826
        case invalidCompositionTrackSegmentSourceDuration = -11827
        case fileFormatNotRecognized = -11828
        case fileFailedToParse = -11829
        case maximumStillImageCaptureRequestsExceeded = -11830
        case contentIsProtected = -11831
        case noImageAtTime = -11832
        case decoderNotFound = -11833
        case encoderNotFound = -11834
        case contentIsNotAuthorized = -11835
        case applicationIsNotAuthorized = -11836
        case deviceIsNotAvailableInBackground = -11837
        case operationNotSupportedForAsset = -11838
        case decoderTemporarilyUnavailable = -11839
        case encoderTemporarilyUnavailable = -11840
        case invalidVideoComposition = -11841
        case referenceForbiddenByReferencePolicy = -11842
        case invalidOutputURLPathExtension = -11843
        case screenCaptureFailed = -11844
        case displayWasDisabled = -11845
        case torchLevelUnavailable = -11846
        case operationInterrupted = -11847
        case incompatibleAsset = -11848
        case failedToLoadMediaData = -11849
        case serverIncorrectlyConfigured = -11850
        case applicationIsNotAuthorizedToUseDevice = -11852
        case failedToParse = -11853
        case fileTypeDoesNotSupportSampleReferences = -11854
        case undecodableMediaData = -11855
        case airPlayControllerRequiresInternet = -11856
        case airPlayReceiverRequiresInternet = -11857
        case videoCompositorFailed = -11858
        case recordingAlreadyInProgress = -11859
        case createContentKeyRequestFailed = -11860
        case unsupportedOutputSettings = -11861
        case operationNotAllowed = -11862
        case contentIsUnavailable = -11863
        case formatUnsupported = -11864
        case malformedDepth = -11865
        case contentNotUpdated = -11866
        case noLongerPlayable = -11867
        case noCompatibleAlternatesForExternalDisplay = -11868
        case noSourceTrack = -11869
        case externalPlaybackNotSupportedForAsset = -11870
        case operationNotSupportedForPreset = -11871
        case sessionHardwareCostOverage = -11872
        case unsupportedDeviceActiveFormat = -11873
    }

    public static var unknown: Code { .unknown }
    public static var outOfMemory: Code { .outOfMemory }
    public static var sessionNotRunning: Code { .sessionNotRunning }
    public static var deviceNotConnected: Code { .deviceNotConnected }
    public static var diskFull: Code { .diskFull }
    public static var maximumStillImageCaptureRequestsExceeded: Code { .maximumStillImageCaptureRequestsExceeded }
    public static var operationNotSupportedForAsset: Code { .operationNotSupportedForAsset }
    public static var sessionWasInterrupted: Code { .sessionWasInterrupted }
    public static var mediaServicesWereReset: Code { .mediaServicesWereReset }
    public static var unsupportedOutputSettings: Code { .unsupportedOutputSettings }
    public static var operationNotAllowed: Code { .operationNotAllowed }
    public static var formatUnsupported: Code { .formatUnsupported }
}

/// User-info key for the `CMTime` at which the error happened.
public let AVErrorTimeKey: String = "AVErrorTimeKey"
/// User-info key for whether a recording finished successfully despite the error (`Bool`).
public let AVErrorRecordingSuccessfullyFinishedKey: String = "AVErrorRecordingSuccessfullyFinishedKey"
/// User-info key for the media type involved (`String`).
public let AVErrorMediaTypeKey: String = "AVErrorMediaTypeKey"
/// User-info key for the file type involved (`String`).
public let AVErrorFileTypeKey: String = "AVErrorFileTypeKey"
