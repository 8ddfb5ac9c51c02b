import CaptureCore

/// The matcher's input stage: a float image pair quantised to 8 bits on one shared scale, lightly
/// smoothed, and its centre-symmetric census codes.
enum StereoPreprocessing {
    /// Both images mapped linearly to 0…255 with the pair's joint finite range (so the same scene
    /// brightness gives the same code in both), NaN and ±∞ as 0.
    static func quantizedPair(_ left: Raster<Float>, _ right: Raster<Float>) -> ([UInt8], [UInt8]) {
        // Both images in chunks on all cores (min and max are exact, so the order does not matter).
        let n = min(left.storage.count, right.storage.count), chunk = 1 << 16
        let chunks = max(1, (n + chunk - 1) / chunk)
        let ranges = Parallel.map(count: 2 * chunks) { i -> (low: Float, high: Float) in
            let start = (i % chunks) * chunk, end = min(n, start + chunk)
            return (i < chunks ? left : right).storage.withUnsafeBufferPointer { p in
                var low = Float.infinity, high = -Float.infinity
                for v in p[start..<end] where v.isFinite {
                    low = min(low, v)
                    high = max(high, v)
                }
                return (low, high)
            }
        }
        let low = ranges.map(\.low).min() ?? .infinity, high = ranges.map(\.high).max() ?? -.infinity
        let scale: Float = high > low ? 255 / (high - low) : 0
        let offset = low.isFinite ? low : 0
        var codes = ([UInt8](repeating: 0, count: n), [UInt8](repeating: 0, count: n))
        left.storage.withUnsafeBufferPointer { l in
            right.storage.withUnsafeBufferPointer { r in
                codes.0.withUnsafeMutableBufferPointer { l8 in
                    codes.1.withUnsafeMutableBufferPointer { r8 in
                        nonisolated(unsafe) let l = l, r = r, l8 = l8, r8 = r8
                        // Each band (one chunk of one image) writes only its own chunk.
                        Parallel.forEachBand(height: 2 * chunks, bandHeight: 1) { band in
                            let i = band.lowerBound
                            let src = i < chunks ? l : r, dst = i < chunks ? l8 : r8
                            for p in (i % chunks) * chunk..<min(n, (i % chunks + 1) * chunk) {
                                let v = src[p]
                                guard v.isFinite else { continue }
                                // (v − offset) · scale lies in 0…255 (+ rounding): rounded half away from
                                // zero by truncation and the exact fraction, as `rounded()` would, without a
                                // libm call.
                                let x = max(0, min(255, (v - offset) * scale))
                                let whole = Int(x)
                                dst[p] = UInt8(min(255, x - Float(whole) >= 0.5 ? whole + 1 : whole))
                            }
                        }
                    }
                }
            }
        }
        return codes
    }

    /// A 3×3 binomial blur ([1 2 1]⊗[1 2 1] / 16), edges replicated.
    static func smoothed(_ image: [UInt8], width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return image }
        var out = [UInt8](repeating: 0, count: image.count)
        image.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var row = [UInt16](repeating: 0, count: width)
                for y in 0..<height {
                    let r0 = src.baseAddress! + max(0, y - 1) * width
                    let r1 = src.baseAddress! + y * width
                    let r2 = src.baseAddress! + min(height - 1, y + 1) * width
                    for x in 0..<width { row[x] = UInt16(r0[x]) + 2 &* UInt16(r1[x]) + UInt16(r2[x]) }
                    for x in 0..<width {
                        let s = row[max(0, x - 1)] + 2 &* row[x] + row[min(width - 1, x + 1)]
                        dst[y * width + x] = UInt8((s + 8) >> 4)
                    }
                }
            }
        }
        return out
    }

    /// Half-window of the census: 9 × 7 pixels.
    static let censusRadius = (x: 4, y: 3)

    /// The offsets o of the centre-symmetric census: one of each pair ±o in the 9×7 window, 31 in all.
    static let censusOffsets: [(dx: Int, dy: Int)] = {
        var offsets: [(dx: Int, dy: Int)] = []
        for dy in -censusRadius.y...0 {
            for dx in -censusRadius.x...censusRadius.x where dy < 0 || dx < 0 { offsets.append((dx, dy)) }
        }
        return offsets
    }()

    /// Centre-symmetric census transform (Spangenberg et al. 2014): bit k is set when the pixel at
    /// +o_k is brighter than the pixel at −o_k; 31 bits per pixel, edges replicated.
    static func census(_ image: [UInt8], width: Int, height: Int) -> [UInt32] {
        let rx = censusRadius.x, ry = censusRadius.y
        let pw = width + 2 * rx, ph = height + 2 * ry
        var padded = [UInt8](repeating: 0, count: pw * ph)
        for py in 0..<ph {
            let y = min(height - 1, max(0, py - ry))
            for px in 0..<pw { padded[py * pw + px] = image[y * width + min(width - 1, max(0, px - rx))] }
        }
        var codes = [UInt32](repeating: 0, count: width * height)
        let offsets = censusOffsets
        padded.withUnsafeBufferPointer { src in
            codes.withUnsafeMutableBufferPointer { dst in
                nonisolated(unsafe) let src = src, dst = dst
                // Each band writes only its own rows of `codes`.
                Parallel.forEachBand(height: height, bandHeight: 64) { rows in
                    for y in rows {
                        let out = dst.baseAddress! + y * width
                        for (bit, o) in offsets.enumerated() {
                            let a = src.baseAddress! + (y + ry + o.dy) * pw + rx + o.dx
                            let b = src.baseAddress! + (y + ry - o.dy) * pw + rx - o.dx
                            let mask = UInt32(1) << UInt32(bit)
                            for x in 0..<width { out[x] |= a[x] > b[x] ? mask : 0 }
                        }
                    }
                }
            }
        }
        return codes
    }
}
