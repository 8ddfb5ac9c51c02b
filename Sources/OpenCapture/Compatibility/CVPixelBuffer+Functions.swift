// Free functions from CVPixelBuffer.h, over `CaptureCore.PixelBuffer`.
import CaptureCore
import Foundation

/// Width of the buffer in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.width
}

/// Height of the buffer in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.height
}

/// The buffer's pixel format code, e.g. `kCVPixelFormatType_32BGRA`.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType {
    pixelBuffer.pixelFormat.rawValue
}

/// Bytes per row of a non-planar buffer (rows are 64-byte aligned). For planar buffers Apple
/// returns a value describing the planar header; OpenCapture returns the first plane's stride.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.bytesPerRow
}

/// Bytes of pixel memory the buffer holds: every plane's rows (their strides × heights).
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes.reduce(0) { $0 + $1.bytesPerRow * $1.height }
}

/// Whether the buffer has more than one plane (e.g. '420f').
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool {
    pixelBuffer.isPlanar
}

/// Number of planes; 0 for non-planar buffers, as in CoreVideo.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.isPlanar ? pixelBuffer.planes.count : 0
}

/// The plane at `planeIndex` of a planar buffer, or nil (non-planar or out of range).
private func planarPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> PixelBuffer.Plane? {
    guard pixelBuffer.isPlanar, pixelBuffer.planes.indices.contains(planeIndex) else { return nil }
    return pixelBuffer.planes[planeIndex]
}

/// Width in pixels of a plane; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    planarPlane(pixelBuffer, planeIndex)?.width ?? 0
}

/// Height in pixels of a plane; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    planarPlane(pixelBuffer, planeIndex)?.height ?? 0
}

/// Row stride in bytes of a plane; 0 for non-planar buffers or a bad index.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    planarPlane(pixelBuffer, planeIndex)?.bytesPerRow ?? 0
}

/// Start of the pixel memory of a non-planar buffer. Apple returns nil unless the buffer is
/// locked (and a planar header for planar buffers); OpenCapture returns the first plane's start
/// whether or not it is locked.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.baseAddress(ofPlane: 0)
}

/// Start of a plane's memory; nil for non-planar buffers or a bad index. Does not require the
/// lock (Apple's may return nil when unlocked).
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    guard planarPlane(pixelBuffer, planeIndex) != nil else { return nil }
    return pixelBuffer.baseAddress(ofPlane: planeIndex)
}

/// Locks the base address so the CPU may access the memory. Locks nest; `lockFlags` is accepted
/// but not enforced.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lockBaseAddress()
    return kCVReturnSuccess
}

/// Balances one `CVPixelBufferLockBaseAddress`; returns `kCVReturnError` if the buffer is not
/// locked.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlockBaseAddress() ? kCVReturnSuccess : kCVReturnError
}

/// Allocates a zero-filled buffer and stores it in `pixelBufferOut`. `allocator` and
/// `pixelBufferAttributes` are accepted and ignored (rows are always 64-byte aligned). Returns
/// `kCVReturnInvalidSize` for non-positive sizes and `kCVReturnInvalidPixelFormat` for formats
/// OpenCapture cannot lay out (supported: 32BGRA, 24RGB, 420v, 420f, 14-bit Bayer, depth,
/// disparity, OneComponent8); on failure `pixelBufferOut` is set to nil.
@discardableResult
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?,
    _ width: Int,
    _ height: Int,
    _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    pixelBufferOut.pointee = nil
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    let format = FourCC(rawValue: pixelFormatType)
    guard PixelBuffer.supports(format) else { return kCVReturnInvalidPixelFormat }
    guard let buffer = PixelBuffer(width: width, height: height, pixelFormat: format) else {
        return kCVReturnAllocationFailed
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}
