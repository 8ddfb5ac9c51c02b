import ArgumentParser
import OpenCapture

/// The `--device` option's values.
enum DeviceChoice: String, ExpressibleByArgument, CaseIterable {
    case wide, tele, dual, front

    var deviceType: AVCaptureDevice.DeviceType {
        switch self {
        case .wide: return .builtInWideAngleCamera
        case .tele: return .builtInTelephotoCamera
        case .dual: return .builtInDualCamera
        case .front: return .builtInTrueDepthCamera
        }
    }

    var position: AVCaptureDevice.Position { self == .front ? .front : .back }

    static func name(of type: AVCaptureDevice.DeviceType) -> String {
        allCases.first { $0.deviceType == type }?.rawValue ?? type.rawValue
    }
}
