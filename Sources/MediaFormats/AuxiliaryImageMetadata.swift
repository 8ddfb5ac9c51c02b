import CaptureCore

/// What Apple's XMP says about one auxiliary image (a depth/disparity map or a portrait effects
/// matte): the `apdi:` pixel-data description, the `depthData:` fields and the matte version.
/// `DepthXMP` is the one writer and parser of the packet; this is its content.
public struct AuxiliaryImageMetadata: Sendable, Equatable {
    // MARK: apdi: (http://ns.apple.com/pixeldatainfo/1.0/)

    /// `apdi:AuxiliaryImageType`: "disparity" or "depth" (Apple writes "depth" for the matte too).
    public var auxiliaryImageType: String?
    /// `apdi:AuxiliaryImageSubType`: "portraiteffectsmatte" for the matte.
    public var auxiliaryImageSubType: String?
    /// `apdi:StoredFormat`: the stored pixels' format, 'L008' (1278226488) for 8-bit.
    public var storedFormat: FourCC?
    /// `apdi:NativeFormat`: the map's own pixel format ('hdis', 'fdis', 'hdep', 'fdep'; 'L008' for a matte).
    public var nativeFormat: FourCC?
    /// `apdi:IntMinValue` / `IntMaxValue`: the stored codes that map to `floatMinValue` / `floatMaxValue`.
    public var intMinValue: Int?
    public var intMaxValue: Int?
    /// `apdi:FloatMinValue` / `FloatMaxValue`: the values (1/m or m) of the codes `intMinValue` / `intMaxValue`.
    public var floatMinValue: Float?
    public var floatMaxValue: Float?

    // MARK: depthData: (http://ns.apple.com/depthData/1.0/)

    /// `depthData:DepthDataVersion` (65541 on iOS 12 and later).
    public var depthDataVersion: Int?
    public var quality: DepthMap.Quality?
    public var accuracy: DepthMap.Accuracy?
    /// `depthData:Filtered`. OpenCapture's readers decode stored code 0 as NaN (no measurement) when false.
    public var isFiltered: Bool?
    /// Intrinsics, extrinsics, pixel size, distortion centre and (OpenCapture's namespace) the
    /// distortion look-up tables; nil without `depthData:IntrinsicMatrix` and its reference size.
    public var calibration: CameraCalibration?
    /// Apple's `depthData:LensDistortionCoefficients` / `InverseLensDistortionCoefficients` as read:
    /// polynomial coefficients on an iPhone, which OpenCapture keeps but does not convert to tables.
    public var lensDistortionCoefficients: [Double]
    public var inverseLensDistortionCoefficients: [Double]

    // MARK: portraitEffectsMatte: (http://ns.apple.com/portraitEffectsMatte/1.0/)

    /// `portraitEffectsMatte:PortraitEffectsMatteVersion` (65537).
    public var portraitEffectsMatteVersion: Int?

    public init(auxiliaryImageType: String? = nil, auxiliaryImageSubType: String? = nil, storedFormat: FourCC? = nil,
                nativeFormat: FourCC? = nil, intMinValue: Int? = nil, intMaxValue: Int? = nil, floatMinValue: Float? = nil,
                floatMaxValue: Float? = nil, depthDataVersion: Int? = nil, quality: DepthMap.Quality? = nil,
                accuracy: DepthMap.Accuracy? = nil, isFiltered: Bool? = nil, calibration: CameraCalibration? = nil,
                lensDistortionCoefficients: [Double] = [], inverseLensDistortionCoefficients: [Double] = [],
                portraitEffectsMatteVersion: Int? = nil) {
        self.auxiliaryImageType = auxiliaryImageType
        self.auxiliaryImageSubType = auxiliaryImageSubType
        self.storedFormat = storedFormat
        self.nativeFormat = nativeFormat
        self.intMinValue = intMinValue
        self.intMaxValue = intMaxValue
        self.floatMinValue = floatMinValue
        self.floatMaxValue = floatMaxValue
        self.depthDataVersion = depthDataVersion
        self.quality = quality
        self.accuracy = accuracy
        self.isFiltered = isFiltered
        self.calibration = calibration
        self.lensDistortionCoefficients = lensDistortionCoefficients
        self.inverseLensDistortionCoefficients = inverseLensDistortionCoefficients
        self.portraitEffectsMatteVersion = portraitEffectsMatteVersion
    }

    /// Whether this describes a portrait effects matte rather than a depth or disparity map.
    public var isPortraitEffectsMatte: Bool {
        auxiliaryImageSubType == "portraiteffectsmatte" || portraitEffectsMatteVersion != nil
    }

    /// The map's kind from `apdi:AuxiliaryImageType` (nil for a matte or an unknown type).
    public var depthKind: DepthMap.Kind? {
        guard !isPortraitEffectsMatte else { return nil }
        switch auxiliaryImageType {
        case "disparity": return .disparity
        case "depth": return .depth
        default: return nil
        }
    }
}
