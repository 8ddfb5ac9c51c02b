import CaptureCore

/// The one table of Apple's four depth data types: what each means (depth or disparity) and how
/// it is stored (half or single float). Used by `AVDepthData` and the device's depth formats.
enum DepthDataTypes {
    /// 'hdis', 'fdis', 'hdep', 'fdep', in the order Apple lists them.
    static let all: [OSType] = [kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32,
                                kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DepthFloat32]

    /// What a type's values mean; nil for other pixel formats.
    static func kind(of type: OSType) -> DepthMap.Kind? {
        switch type {
        case kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DisparityFloat32: return .disparity
        case kCVPixelFormatType_DepthFloat16, kCVPixelFormatType_DepthFloat32: return .depth
        default: return nil
        }
    }

    /// Whether a type stores IEEE 754 half floats.
    static func isHalfFloat(_ type: OSType) -> Bool {
        type == kCVPixelFormatType_DisparityFloat16 || type == kCVPixelFormatType_DepthFloat16
    }

    /// The type for a kind and precision.
    static func type(kind: DepthMap.Kind, halfFloat: Bool) -> OSType {
        switch (kind, halfFloat) {
        case (.disparity, true): return kCVPixelFormatType_DisparityFloat16
        case (.disparity, false): return kCVPixelFormatType_DisparityFloat32
        case (.depth, true): return kCVPixelFormatType_DepthFloat16
        case (.depth, false): return kCVPixelFormatType_DepthFloat32
        }
    }
}
