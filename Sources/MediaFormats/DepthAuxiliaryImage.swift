import CaptureCore

/// A depth or disparity map to embed in a HEIC (auxiliary image) or JPEG (MPF secondary image),
/// stored as Apple stores it: 8-bit codes ('L008') linearly between `apdi:FloatMinValue` (code 0)
/// and `apdi:FloatMaxValue` (code 255), at the map's own resolution (e.g. 768×576 or 640×480),
/// described by Apple's depth XMP (`DepthXMP`).
///
/// Missing values: when the map is not filtered (`isFiltered` false, so it may hold NaN), code 0
/// is reserved for "no measurement": the finite values use codes 1…255 and FloatMinValue is one
/// step below the smallest of them, so a reader that knows nothing of this sees a hole as "one
/// step farther than the farthest measurement" (disparity) or nearer (depth). OpenCapture's reader
/// (`EmbeddedDepthReader`) turns code 0 of an unfiltered map back into NaN. A filtered map uses
/// all 256 codes (a stray NaN becomes code 0).
public struct DepthAuxiliaryImage: Sendable {
    /// How the values are stored in the file.
    public enum Storage: Sendable, Hashable {
        /// 8-bit codes, Apple's 'L008' (1278226488), the only storage HEVC Main and JPEG hold
        /// at 8 bits and the one iPhones write.
        case eightBit
    }

    /// The map (one channel), its kind, accuracy, quality, filtering and calibration.
    public var map: DepthMap
    public var storage: Storage
    /// `apdi:NativeFormat`: the pixel format the map had in memory; by default half-float of the
    /// map's kind ('hdis' for disparity, 'hdep' for depth), as an iPhone writes.
    public var nativeFormat: FourCC

    public init(map: DepthMap, storage: Storage = .eightBit, nativeFormat: FourCC? = nil) {
        self.map = map
        self.storage = storage
        self.nativeFormat = nativeFormat ?? (map.kind == .disparity ? .disparityFloat16 : .depthFloat16)
    }

    /// The stored codes and the XMP that describes them. Throws `.invalidImage` for an empty map
    /// or one with more than one channel.
    public func encoded() throws -> (codes: Raster<UInt8>, metadata: AuxiliaryImageMetadata) {
        let values = map.values
        guard values.width > 0, values.height > 0, values.channels == 1 else {
            throw MediaFormatError.invalidImage("a depth map must be one channel and not empty (\(values.width)×\(values.height)×\(values.channels))")
        }
        let range = map.finiteRange ?? 0...0
        let reserveZero = !map.isFiltered
        let lo = range.lowerBound, hi = range.upperBound
        let firstCode: Float = reserveZero ? 1 : 0
        let step = (hi - lo) / (255 - firstCode)
        let floatMin = lo - firstCode * step
        let codes = values.storage.map { v -> UInt8 in
            guard v.isFinite else { return 0 }
            guard step > 0 else { return UInt8(firstCode) }
            return UInt8(min(255, max(firstCode, firstCode + ((v - lo) / step).rounded())))
        }
        var m = AuxiliaryImageMetadata()
        m.auxiliaryImageType = map.kind == .disparity ? "disparity" : "depth"
        m.storedFormat = .oneComponent8
        m.nativeFormat = nativeFormat
        m.intMinValue = 0
        m.intMaxValue = 255
        m.floatMinValue = floatMin
        m.floatMaxValue = hi
        m.depthDataVersion = DepthXMP.depthDataVersion
        m.quality = map.quality
        m.accuracy = map.accuracy
        m.isFiltered = map.isFiltered
        m.calibration = map.calibration
        return (Raster(width: values.width, height: values.height, channels: 1, storage: codes), m)
    }

    /// The map back from stored codes and their XMP: code c ↦ FloatMin + (c − IntMin) ×
    /// (FloatMax − FloatMin) / (IntMax − IntMin); code 0 of an unfiltered map ↦ NaN. Throws
    /// `.invalidMetadata` when the XMP lacks the type or the value range.
    public static func decoded(codes: Raster<UInt8>, metadata m: AuxiliaryImageMetadata) throws -> DepthMap {
        guard let kind = m.depthKind else {
            throw MediaFormatError.invalidMetadata("depth XMP has no apdi:AuxiliaryImageType disparity or depth")
        }
        guard let floatMin = m.floatMinValue, let floatMax = m.floatMaxValue, floatMin.isFinite, floatMax.isFinite else {
            throw MediaFormatError.invalidMetadata("depth XMP lacks apdi:FloatMinValue/FloatMaxValue")
        }
        // Distances and disparities are not negative (the bottom may sit one code step below zero, where an
        // unfiltered map reserves code 0 for holes), the range runs upwards, and a top beyond 10⁶ m or 10⁶ 1/m is
        // damage, not a measurement.
        guard floatMax >= floatMin, floatMax >= 0, floatMax <= 1e6, floatMin >= -(floatMax - floatMin) / 200 else {
            throw MediaFormatError.invalidMetadata("depth XMP range \(floatMin)…\(floatMax) is not an ascending range of non-negative values")
        }
        if let stored = m.storedFormat, stored != .oneComponent8 {
            throw MediaFormatError.unsupported("depth stored as \(stored), not L008")
        }
        let intMin = m.intMinValue ?? 0, intMax = m.intMaxValue ?? 255
        guard (0...255).contains(intMin), (0...255).contains(intMax), intMin < intMax else {
            throw MediaFormatError.invalidMetadata("apdi:IntMinValue/IntMaxValue \(intMin)/\(intMax) is not an 8-bit range")
        }
        let filtered = m.isFiltered ?? true
        let scale = (floatMax - floatMin) / Float(intMax - intMin)
        let table = (0..<256).map { c -> Float in
            c == 0 && !filtered ? .nan : floatMin + Float(c - intMin) * scale
        }
        let values = Raster(width: codes.width, height: codes.height, channels: 1,
                            storage: stride(from: 0, to: codes.storage.count, by: codes.channels).map { table[Int(codes.storage[$0])] })
        return DepthMap(values: values, kind: kind, accuracy: m.accuracy ?? .relative, quality: m.quality ?? .high,
                        isFiltered: filtered, calibration: m.calibration)
    }
}
