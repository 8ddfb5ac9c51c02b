import CaptureCore

/// Post-processing of a raw disparity map: NaN-aware 3×3 median and speckle removal.
enum DisparityCleanup {
    /// Each finite value replaced by the median of the finite values of its 3×3 neighbourhood; NaN stays NaN.
    static func median3x3(_ values: [Float], width: Int, height: Int) -> [Float] {
        var out = values
        values.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                nonisolated(unsafe) let src = src, dst = dst
                // Each band writes only its own rows of `out`.
                Parallel.forEachBand(height: height, bandHeight: 64) { rows in
                    var window: (Float, Float, Float, Float, Float, Float, Float, Float, Float) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
                    withUnsafeMutableBytes(of: &window) { raw in
                        let win = raw.baseAddress!.assumingMemoryBound(to: Float.self)
                        for y in rows {
                            for x in 0..<width where src[y * width + x].isFinite {
                                if x > 0, x < width - 1, y > 0, y < height - 1 {
                                    let a = src.baseAddress! + (y - 1) * width + x - 1
                                    let b = a + width, c = b + width
                                    let nine = (a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2])
                                    if nine.0.isFinite && nine.1.isFinite && nine.2.isFinite && nine.3.isFinite
                                        && nine.5.isFinite && nine.6.isFinite && nine.7.isFinite && nine.8.isFinite {
                                        dst[y * width + x] = median9(nine)
                                        continue
                                    }
                                }
                                var n = 0
                                for yy in max(0, y - 1)...min(height - 1, y + 1) {
                                    for xx in max(0, x - 1)...min(width - 1, x + 1) {
                                        let v = src[yy * width + xx]
                                        guard v.isFinite else { continue }
                                        // Insertion into the sorted prefix.
                                        var j = n - 1
                                        while j >= 0 && win[j] > v { win[j + 1] = win[j]; j -= 1 }
                                        win[j + 1] = v
                                        n += 1
                                    }
                                }
                                dst[y * width + x] = n % 2 == 1 ? win[n / 2] : 0.5 * (win[n / 2 - 1] + win[n / 2])
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// The median of nine finite values by Paeth's 19-exchange network (branch-free min/max).
    @inline(__always)
    static func median9(_ v: (Float, Float, Float, Float, Float, Float, Float, Float, Float)) -> Float {
        var (p0, p1, p2, p3, p4, p5, p6, p7, p8) = v
        @inline(__always) func sort(_ a: inout Float, _ b: inout Float) { let t = min(a, b); b = max(a, b); a = t }
        sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8); sort(&p0, &p1); sort(&p3, &p4); sort(&p6, &p7)
        sort(&p1, &p2); sort(&p4, &p5); sort(&p7, &p8); sort(&p0, &p3); sort(&p5, &p8); sort(&p4, &p7)
        sort(&p3, &p6); sort(&p1, &p4); sort(&p2, &p5); sort(&p4, &p7); sort(&p4, &p2); sort(&p6, &p4)
        sort(&p4, &p2)
        return p4
    }

    /// Regions of 4-connected pixels whose neighbours differ by at most `range`, smaller than
    /// `window` pixels, set to NaN (OpenCV's filterSpeckles). A region is the same whatever order it
    /// is flooded in, so the result does not depend on the traversal.
    static func removeSpeckles(_ values: inout [Float], width: Int, height: Int, window: Int, range: Float) {
        let n = values.count
        guard window > 0, width > 0, n > 0, n <= Int(Int32.max) else { return }
        values.withUnsafeMutableBufferPointer { buffer in
            let v = buffer.baseAddress!
            let visited = UnsafeMutablePointer<Bool>.allocate(capacity: n)
            visited.initialize(repeating: false, count: n)
            // Every pixel enters the stack once at most; `region` lists the current region's pixels.
            let stack = UnsafeMutablePointer<Int32>.allocate(capacity: n)
            let region = UnsafeMutablePointer<Int32>.allocate(capacity: n)
            defer { visited.deallocate(); stack.deallocate(); region.deallocate() }
            for start in 0..<n where !visited[start] && v[start].isFinite {
                visited[start] = true
                stack[0] = Int32(start)
                var depth = 1, size = 0
                while depth > 0 {
                    depth -= 1
                    let p = Int(stack[depth])
                    region[size] = Int32(p)
                    size += 1
                    let value = v[p], x = p % width
                    @inline(__always) func visit(_ q: Int) {
                        if !visited[q], abs(v[q] - value) <= range {   // false for NaN
                            visited[q] = true
                            stack[depth] = Int32(q)
                            depth += 1
                        }
                    }
                    if x > 0 { visit(p - 1) }
                    if x < width - 1 { visit(p + 1) }
                    if p >= width { visit(p - width) }
                    if p + width < n { visit(p + width) }
                }
                if size < window { for i in 0..<size { v[Int(region[i])] = .nan } }
            }
        }
    }
}
