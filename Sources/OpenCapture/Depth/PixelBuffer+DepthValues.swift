import CaptureCore

// The one conversion between depth/matte pixel buffers and float rasters: half floats through
// Swift's `Float16` (IEEE 754 round-to-nearest-even, overflow to ±∞, NaN kept), mattes as 8-bit
// coverage (0…1 ↦ 0…255, rounded, clamped; NaN ↦ 0).
extension PixelBuffer {
    /// A one-plane buffer of `type` (one of `DepthDataTypes.all`) holding `values` (1 channel);
    /// nil for another type, another channel count or an empty raster.
    static func depthBuffer(_ values: Raster<Float>, type: OSType) -> PixelBuffer? {
        guard DepthDataTypes.kind(of: type) != nil, values.channels == 1,
              let buffer = PixelBuffer(width: values.width, height: values.height, pixelFormat: FourCC(rawValue: type)),
              let base = buffer.baseAddress() else { return nil }
        let stride = buffer.bytesPerRow, width = values.width
        let half = DepthDataTypes.isHalfFloat(type)
        values.storage.withUnsafeBufferPointer { source in
            for y in 0..<values.height {
                let row = base + y * stride
                if half {
                    let out = row.assumingMemoryBound(to: Float16.self)
                    for x in 0..<width { out[x] = Float16(source[y * width + x]) }
                } else {
                    let out = row.assumingMemoryBound(to: Float.self)
                    for x in 0..<width { out[x] = source[y * width + x] }
                }
            }
        }
        return buffer
    }

    /// The values of a depth/disparity buffer as single floats; nil for other formats.
    func depthValues() -> Raster<Float>? {
        guard DepthDataTypes.kind(of: pixelFormat.rawValue) != nil, let base = baseAddress() else { return nil }
        let half = DepthDataTypes.isHalfFloat(pixelFormat.rawValue)
        let stride = bytesPerRow, w = width
        var storage = [Float](repeating: 0, count: width * height)
        storage.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(base + y * stride)
                if half {
                    let input = row.assumingMemoryBound(to: Float16.self)
                    for x in 0..<w { out[y * w + x] = Float(input[x]) }
                } else {
                    let input = row.assumingMemoryBound(to: Float.self)
                    for x in 0..<w { out[y * w + x] = input[x] }
                }
            }
        }
        return Raster(width: width, height: height, storage: storage)
    }

    /// An 'L008' buffer of a 0…1 matte (1 channel); nil for another channel count or an empty raster.
    static func matteBuffer(_ matte: Raster<Float>) -> PixelBuffer? {
        guard matte.channels == 1,
              let buffer = PixelBuffer(width: matte.width, height: matte.height, pixelFormat: .oneComponent8),
              let base = buffer.baseAddress() else { return nil }
        let stride = buffer.bytesPerRow, width = matte.width
        matte.storage.withUnsafeBufferPointer { source in
            for y in 0..<matte.height {
                let out = (base + y * stride).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width {
                    let v = source[y * width + x]
                    out[x] = v.isNaN ? 0 : UInt8((min(max(v, 0), 1) * 255).rounded())
                }
            }
        }
        return buffer
    }

    /// The coverage of an 'L008' buffer as 0…1 floats (code / 255); nil for other formats.
    func matteValues() -> Raster<Float>? {
        guard pixelFormat == .oneComponent8, let base = baseAddress() else { return nil }
        let stride = bytesPerRow, w = width
        var storage = [Float](repeating: 0, count: width * height)
        storage.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let input = UnsafeRawPointer(base + y * stride).assumingMemoryBound(to: UInt8.self)
                for x in 0..<w { out[y * w + x] = Float(input[x]) / 255 }
            }
        }
        return Raster(width: width, height: height, storage: storage)
    }
}
