/// Colour spaces a device can capture in (Apple's `AVCaptureColorSpace`). OpenCapture simulates
/// sRGB and Display P3; HLG BT.2020 and Apple Log are declared for source compatibility.
public enum AVCaptureColorSpace: Int, Sendable {
    case sRGB = 0
    case P3_D65 = 1
    case HLG_BT2020 = 2
    case appleLog = 3
}
