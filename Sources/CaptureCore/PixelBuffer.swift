import Foundation

/// Planar or interleaved pixel memory with CoreVideo's shape: a pixel format code, planes with
/// their own width, height and 64-byte-aligned row stride, and a lock count.
/// OpenCapture exposes it as `CVPixelBuffer`.
///
/// `@unchecked Sendable`: every stored property is immutable except `storedAttachments`, guarded
/// by `attachmentsLock`, and `lockCount`, guarded by `lockCountLock`. The pixel bytes behind
/// `memory` are the caller's to coordinate, as with CoreVideo: lock the base address around access
/// from several threads.
public final class PixelBuffer: @unchecked Sendable {
    /// One plane of a buffer.
    public struct Plane: Sendable {
        public let width: Int
        public let height: Int
        public let bytesPerRow: Int
        public let bytesPerPixel: Int
        let offset: Int
    }

    public let width: Int
    public let height: Int
    public let pixelFormat: FourCC
    public let planes: [Plane]
    /// Key–value attachments (CVBuffer attachments), e.g. colour space names. Safe to read and
    /// change from any thread; `attachments[key] = value` is one atomic update.
    public var attachments: [String: String] {
        get { attachmentsLock.withLock { storedAttachments } }
        set { attachmentsLock.withLock { storedAttachments = newValue } }
        _modify {
            attachmentsLock.lock()
            defer { attachmentsLock.unlock() }
            yield &storedAttachments
        }
    }

    private let memory: UnsafeMutableRawPointer
    private let byteCount: Int
    /// Guards `storedAttachments`.
    private let attachmentsLock = NSLock()
    private var storedAttachments: [String: String] = [:]
    /// Guards `lockCount`.
    private let lockCountLock = NSLock()
    private var lockCount = 0

    /// Allocates a zeroed buffer; returns nil for unknown formats or non-positive sizes.
    public init?(width: Int, height: Int, pixelFormat: FourCC) {
        guard width > 0, height > 0, let layout = PixelBuffer.layout(for: pixelFormat, width: width, height: height)
        else { return nil }
        self.width = width
        self.height = height
        self.pixelFormat = pixelFormat
        var planes: [Plane] = []
        var offset = 0
        for (w, h, bpp) in layout {
            let bytesPerRow = (w * bpp + 63) & ~63
            planes.append(Plane(width: w, height: h, bytesPerRow: bytesPerRow, bytesPerPixel: bpp, offset: offset))
            offset += bytesPerRow * h
        }
        self.planes = planes
        byteCount = max(offset, 1)
        memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    deinit { memory.deallocate() }

    /// (width, height, bytes per pixel) per plane, or nil if the format is not supported.
    static func layout(for format: FourCC, width: Int, height: Int) -> [(Int, Int, Int)]? {
        switch format {
        case .bgra32: return [(width, height, 4)]
        case .yuv420BiPlanarFullRange, .yuv420BiPlanarVideoRange:
            return [(width, height, 1), ((width + 1) / 2, (height + 1) / 2, 2)]
        case .bayer14RGGB, .bayer14GRBG, .bayer14GBRG, .bayer14BGGR: return [(width, height, 2)]
        case .disparityFloat16, .depthFloat16: return [(width, height, 2)]
        case .disparityFloat32, .depthFloat32: return [(width, height, 4)]
        case .oneComponent8: return [(width, height, 1)]
        case FourCC(rawValue: 24): return [(width, height, 3)]  // kCVPixelFormatType_24RGB
        default: return nil
        }
    }

    /// Whether `format` can be allocated.
    public static func supports(_ format: FourCC) -> Bool {
        layout(for: format, width: 2, height: 2) != nil
    }

    public var isPlanar: Bool { planes.count > 1 }
    public var bytesPerRow: Int { planes[0].bytesPerRow }

    /// Start of a plane's memory. Access outside a lock is allowed but not thread-safe.
    public func baseAddress(ofPlane index: Int = 0) -> UnsafeMutableRawPointer? {
        guard planes.indices.contains(index) else { return nil }
        return memory + planes[index].offset
    }

    /// Counts one lock of the base address (CVPixelBufferLockBaseAddress).
    public func lockBaseAddress() {
        lockCountLock.withLock { lockCount += 1 }
    }

    /// Undoes one `lockBaseAddress`; returns false when the buffer was not locked.
    @discardableResult
    public func unlockBaseAddress() -> Bool {
        lockCountLock.withLock {
            guard lockCount > 0 else { return false }
            lockCount -= 1
            return true
        }
    }

    /// Whether at least one `lockBaseAddress` is outstanding.
    public var isLocked: Bool {
        lockCountLock.withLock { lockCount > 0 }
    }

    /// Copies an interleaved 8-bit raster (3 = RGB or 4 = RGBA channels) into a BGRA buffer.
    public static func bgra(from rgb: Raster<UInt8>) -> PixelBuffer? {
        guard rgb.channels == 3 || rgb.channels == 4,
              let buffer = PixelBuffer(width: rgb.width, height: rgb.height, pixelFormat: .bgra32) else { return nil }
        let stride = buffer.bytesPerRow, ch = rgb.channels
        let base = buffer.baseAddress()!.assumingMemoryBound(to: UInt8.self)
        rgb.storage.withUnsafeBufferPointer { src in
            Parallel.forEachBand(height: rgb.height) { rows in
                for y in rows {
                    let d = base + y * stride
                    let s = y * rgb.width * ch
                    for x in 0..<rgb.width {
                        d[4 * x] = src[s + ch * x + 2]
                        d[4 * x + 1] = src[s + ch * x + 1]
                        d[4 * x + 2] = src[s + ch * x]
                        d[4 * x + 3] = ch == 4 ? src[s + ch * x + 3] : 255
                    }
                }
            }
        }
        return buffer
    }

    /// Converts an interleaved 8-bit RGB raster to bi-planar 4:2:0 Y'CbCr with `YCbCr420` in `matrix` (BT.601 for a
    /// photo, as JPEG uses it; a video frame's `YCbCrMatrix.video(width:height:)`), which the buffer's
    /// `CVImageBufferYCbCrMatrix` attachment names. Video range scales luma to 16–235 and chroma to 16–240.
    public static func yCbCr420(from rgb: Raster<UInt8>, fullRange: Bool, matrix: YCbCrMatrix) -> PixelBuffer? {
        guard rgb.channels >= 3,
              let buffer = PixelBuffer(width: rgb.width, height: rgb.height,
                                       pixelFormat: fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange)
        else { return nil }
        let yPlane = buffer.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
        let cPlane = buffer.baseAddress(ofPlane: 1)!.assumingMemoryBound(to: UInt8.self)
        let destination = YCbCr420.Destination(y: yPlane, yRowStride: buffer.planes[0].bytesPerRow, cb: cPlane, cr: cPlane + 1,
                                               chromaRowStride: buffer.planes[1].bytesPerRow, chromaStep: 2)
        YCbCr420.convert(rgb, width: rgb.width, height: rgb.height, range: fullRange ? .full : .video, matrix: matrix,
                         into: destination, parallel: true)
        CoreVideoAttachment.tag(buffer, matrix: matrix)
        return buffer
    }

    /// Copies a 16-bit single-channel raster (e.g. Bayer codes) into a one-plane 16-bit buffer.
    public static func uint16(from raster: Raster<UInt16>, pixelFormat: FourCC) -> PixelBuffer? {
        guard raster.channels == 1,
              let buffer = PixelBuffer(width: raster.width, height: raster.height, pixelFormat: pixelFormat),
              buffer.planes[0].bytesPerPixel == 2 else { return nil }
        let stride = buffer.bytesPerRow
        let base = buffer.baseAddress()!
        raster.storage.withUnsafeBytes { src in
            for y in 0..<raster.height {
                (base + y * stride).copyMemory(from: src.baseAddress! + y * raster.width * 2, byteCount: raster.width * 2)
            }
        }
        return buffer
    }
}
