import Foundation

extension DefocusBlur {
    /// Pixels grouped into layers of nearly equal blur, ordered back to front, with each layer's columns per row.
    struct Layering {
        struct Layer {
            /// Disc radius, pixels (half the mean diameter of the layer's pixels).
            var radius: Float
            /// Mean depth of the layer's pixels.
            var depth: Double
            /// Per image row: first and last column holding the layer (x > y when none).
            var extents: [SIMD2<Int32>]

            /// Columns holding the layer in any of `rows`, or nil.
            func extent(rows: Range<Int>) -> Range<Int>? {
                var lo = Int32.max, hi = Int32.min
                for y in rows where extents[y].x <= extents[y].y {
                    lo = min(lo, extents[y].x)
                    hi = max(hi, extents[y].y)
                }
                return lo <= hi ? Int(lo)..<Int(hi + 1) : nil
            }
        }

        let width: Int
        let height: Int
        /// Layer index of each pixel (into `layers`).
        let ids: [UInt16]
        /// Back to front.
        let layers: [Layer]

        /// Diameter bin: 0.5 px wide below 8 px, 6 % wide above.
        static func bin(_ diameter: Float) -> Int {
            diameter < 8 ? Int((diameter * 2).rounded()) : 16 + Int(log(diameter / 8) / log(1.06))
        }

        init(width w: Int, height h: Int, coc: UnsafeBufferPointer<Float>, depth: UnsafeBufferPointer<Float>) {
            width = w
            height = h
            let count = w * h
            @inline(__always) func diameter(_ i: Int) -> Float {
                let c = coc[i]
                return c.isFinite ? min(max(c, 0), DefocusBlur.maximumDiameter) : (c == .infinity ? DefocusBlur.maximumDiameter : 0)
            }
            @inline(__always) func distance(_ i: Int) -> Float { depth[i].isNaN ? .infinity : depth[i] }
            // The sharpest pixel's depth separates the near side from the far side (blur grows both ways from it).
            var sharpest = Float.infinity, focusDepth = Float.infinity, largest: Float = 0
            for i in 0..<count {
                let c = diameter(i)
                if c < sharpest { sharpest = c; focusDepth = distance(i) }
                largest = max(largest, c)
            }
            let bins = DefocusBlur.Layering.bin(largest) + 1
            var pixelCount = [Int](repeating: 0, count: 2 * bins)
            var diameterSum = [Double](repeating: 0, count: 2 * bins)
            var depthSum = [Double](repeating: 0, count: 2 * bins)
            var key = [UInt16](repeating: 0, count: count)
            var infinite = [Bool](repeating: false, count: 2 * bins)
            for i in 0..<count {
                let c = diameter(i), z = distance(i)
                let k = (z < focusDepth ? bins : 0) + DefocusBlur.Layering.bin(c)
                key[i] = UInt16(truncatingIfNeeded: k)
                pixelCount[k] += 1
                diameterSum[k] += Double(c)
                if z.isFinite { depthSum[k] += Double(z) } else { infinite[k] = true }
            }
            // Back to front: far side from the largest blur down, then the near side.
            var order = (0..<(2 * bins)).filter { pixelCount[$0] > 0 }
            let meanDepth = { (k: Int) -> Double in infinite[k] ? .infinity : depthSum[k] / Double(pixelCount[k]) }
            order.sort { meanDepth($0) > meanDepth($1) }
            var index = [UInt16](repeating: 0, count: 2 * bins)
            for (n, k) in order.enumerated() { index[k] = UInt16(n) }
            var layers = order.map {
                Layer(radius: Float(diameterSum[$0] / Double(pixelCount[$0]) / 2), depth: meanDepth($0),
                      extents: [SIMD2<Int32>](repeating: SIMD2(Int32.max, Int32.min), count: h))
            }
            for y in 0..<h {
                for x in 0..<w {
                    let i = y * w + x
                    let n = index[Int(key[i])]
                    key[i] = n
                    let e = layers[Int(n)].extents[y]
                    if e.x > e.y { layers[Int(n)].extents[y] = SIMD2(Int32(x), Int32(x)) } else { layers[Int(n)].extents[y].y = Int32(x) }
                }
            }
            ids = key
            self.layers = layers
        }
    }
}
