import CaptureCore
import Foundation
@testable import OpenCapture

/// A buffer of `type` (a depth type, 'L008' or 'BGRA') holding `rows` (row-major values) through the
/// public CoreVideo functions, as an app would fill one.
func makeBuffer(_ rows: [[Float]], type: OSType) -> CVPixelBuffer? {
    let height = rows.count, width = rows.first?.count ?? 0
    var made: CVPixelBuffer?
    guard CVPixelBufferCreate(kCFAllocatorDefault, width, height, type, nil, &made) == kCVReturnSuccess,
          let buffer = made else { return nil }
    CVPixelBufferLockBaseAddress(buffer, [])
    defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
    guard let base = CVPixelBufferGetBaseAddress(buffer) else { return nil }
    let stride = CVPixelBufferGetBytesPerRow(buffer)
    for (y, row) in rows.enumerated() {
        for (x, value) in row.enumerated() {
            let p = base + y * stride
            switch type {
            case kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DepthFloat16:
                p.storeBytes(of: Float16(value), toByteOffset: 2 * x, as: Float16.self)
            case kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat32:
                p.storeBytes(of: value, toByteOffset: 4 * x, as: Float.self)
            case kCVPixelFormatType_OneComponent8:
                p.storeBytes(of: UInt8(value), toByteOffset: x, as: UInt8.self)
            default:
                p.storeBytes(of: UInt8(value), toByteOffset: 4 * x, as: UInt8.self)
            }
        }
    }
    return buffer
}

/// The values of a one-component buffer as rows, read through the public CoreVideo functions.
func readBuffer(_ buffer: CVPixelBuffer) -> [[Float]] {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    guard let base = CVPixelBufferGetBaseAddress(buffer) else { return [] }
    let stride = CVPixelBufferGetBytesPerRow(buffer), type = CVPixelBufferGetPixelFormatType(buffer)
    return (0..<CVPixelBufferGetHeight(buffer)).map { y in
        (0..<CVPixelBufferGetWidth(buffer)).map { x in
            let p = UnsafeRawPointer(base + y * stride)
            switch type {
            case kCVPixelFormatType_DisparityFloat16, kCVPixelFormatType_DepthFloat16:
                return Float(p.load(fromByteOffset: 2 * x, as: Float16.self))
            case kCVPixelFormatType_DisparityFloat32, kCVPixelFormatType_DepthFloat32:
                return p.load(fromByteOffset: 4 * x, as: Float.self)
            default:
                return Float(p.load(fromByteOffset: x, as: UInt8.self))
            }
        }
    }
}

/// Element-wise equality that treats NaN as equal to NaN.
func sameValues(_ a: [[Float]], _ b: [[Float]]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { ra, rb in
        ra.count == rb.count && zip(ra, rb).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
    }
}

/// Everything reported to `DeviceDiagnostics` in this test process, as text. Installed once; every
/// test that looks at reports goes through it, so the process-wide handler is never contended.
enum DiagnosticsRecorder {
    private static let reports = Locked<[String]>([])
    private static let installed: Bool = {
        DeviceDiagnostics.setHandler { error in reports.withLock { $0.append(String(describing: error)) } }
        return true
    }()

    /// The reports made while `body` ran that contain `text`.
    static func reports(containing text: String, during body: () throws -> Void) rethrows -> [String] {
        _ = installed
        let before = reports.withLock { $0.count }
        try body()
        return reports.withLock { Array($0[before...]) }.filter { $0.contains(text) }
    }
}
