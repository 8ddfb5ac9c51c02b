import CaptureCore

/// CoreVideo's pixel buffer: planar or interleaved pixel memory with a format code, per-plane
/// geometry and a lock count. Apple's is a CF type (`CVBuffer` subclass chain); OpenCapture's is
/// the Swift class `CaptureCore.PixelBuffer`, used through the `CVPixelBuffer…` functions.
public typealias CVPixelBuffer = PixelBuffer

/// CoreVideo's image buffer. On Apple platforms `CVPixelBuffer` is a kind of `CVImageBuffer`;
/// OpenCapture has only pixel buffers, so both names denote the same class.
public typealias CVImageBuffer = PixelBuffer

/// CoreVideo's base buffer type, the one the `CVBuffer…` attachment functions take: a `CVPixelBuffer` here too.
public typealias CVBuffer = PixelBuffer
