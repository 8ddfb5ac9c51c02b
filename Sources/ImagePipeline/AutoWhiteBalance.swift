import CaptureCore

/// Estimates the scene illuminant from the raw frame itself.
public enum AutoWhiteBalance {
    /// Camera-RGB response to a neutral (green = 1) by grey-world over unclipped mid-tone 2×2 CFA
    /// quads; WB gains are its reciprocal. Falls back to the frame's asShotNeutral when no quad qualifies.
    public static func estimate(_ raw: RawImage) -> SIMD3<Double> {
        let w = raw.width, h = raw.height, colors = raw.cfa.colors
        let blacks = (0..<4).map { Double(raw.blackLevel.isEmpty ? 0 : raw.blackLevel[$0 % raw.blackLevel.count]) }
        let scales = blacks.map { 1 / max(1, Double(raw.whiteLevel) - $0) }
        var sum = SIMD3<Double>(repeating: 0)
        raw.bayer.storage.withUnsafeBufferPointer { codes in
            for y in stride(from: 0, to: h - 1, by: 2) {
                for x in stride(from: 0, to: w - 1, by: 2) {
                    var quad = SIMD3<Double>(repeating: 0), greens = 0.0, top = 0.0
                    for i in 0..<4 {
                        let v = (Double(codes[(y + (i >> 1)) * w + x + (i & 1)]) - blacks[i]) * scales[i]
                        quad[colors[i]] += v
                        if colors[i] == 1 { greens += 1 }
                        top = max(top, v)
                    }
                    quad.y /= max(1, greens)
                    // Unclipped (with margin) and not lost in the noise floor.
                    if top < 0.9, quad.min() > 0.01 { sum += quad }
                }
            }
        }
        guard sum.y > 0, sum.x > 0, sum.z > 0 else { return raw.asShotNeutral }
        return SIMD3(sum.x / sum.y, 1, sum.z / sum.y)
    }
}
