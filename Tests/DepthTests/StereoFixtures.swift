import CaptureCore

/// Synthetic rectified stereo pairs with known disparity.
enum StereoFixtures {
    /// A random-dot pair: a background at disparity `background` and a square of its own dots at
    /// `foreground` (x in `square.x`, y in `square.y`, left-image coordinates). Returns the images,
    /// the left view's true disparity, and the left pixels occluded in the right view.
    static func randomDotStep(width: Int = 160, height: Int = 120, background: Int = 8, foreground: Int = 16,
                              square: (x: Range<Int>, y: Range<Int>) = (60..<110, 35..<85), seed: UInt64 = 7)
        -> (left: Raster<Float>, right: Raster<Float>, truth: Raster<Float>, occluded: Raster<Bool>) {
        var rng = RandomSource(seed: seed)
        let span = width + max(background, foreground) + 64
        let back = (0..<(span * height)).map { _ in rng.nextUniform() }
        let front = (0..<(span * height)).map { _ in rng.nextUniform() }
        func b(_ u: Int, _ y: Int) -> Float { back[y * span + u + 32] }
        func f(_ u: Int, _ y: Int) -> Float { front[y * span + u + 32] }
        var left = Raster<Float>(width: width, height: height), right = left, truth = left
        var occluded = Raster<Bool>(width: width, height: height, repeating: false)
        for y in 0..<height {
            let inRows = square.y.contains(y)
            for x in 0..<width {
                let inFront = inRows && square.x.contains(x)
                left[x, y] = inFront ? f(x, y) : b(x, y)
                truth[x, y] = Float(inFront ? foreground : background)
                // The right view: the square moved left by `foreground`, the background by `background`.
                let frontInRight = inRows && square.x.contains(x + foreground)
                right[x, y] = frontInRight ? f(x + foreground, y) : b(x + background, y)
                // A background pixel whose right-view position is covered by the square.
                if !inFront, inRows, square.x.contains(x - background + foreground) { occluded[x, y] = true }
            }
        }
        return (left, right, truth, occluded)
    }

    /// A slanted plane: disparity a + b·x (x of the left pixel centre) over a smooth random texture.
    static func slantedPlane(width: Int = 200, height: Int = 80, a: Double = 6, b: Double = 0.05, seed: UInt64 = 3)
        -> (left: Raster<Float>, right: Raster<Float>, truth: Raster<Float>) {
        var rng = RandomSource(seed: seed)
        let cell = 1.4, columns = Int(Double(width) * 1.2 / cell) + 8
        let grid = (0..<(columns * height)).map { _ in rng.nextUniform() }
        /// The texture at continuous u along row y: linear interpolation of a random grid of 1.4 px cells.
        func texture(_ u: Double, _ y: Int) -> Float {
            let t = u / cell + 2, i = Int(t.rounded(.down)), f = Float(t - Double(i))
            let i0 = max(0, min(columns - 2, i))
            return grid[y * columns + i0] * (1 - f) + grid[y * columns + i0 + 1] * f
        }
        var left = Raster<Float>(width: width, height: height), right = left, truth = left
        for y in 0..<height {
            for x in 0..<width {
                let centre = Double(x) + 0.5
                left[x, y] = texture(centre, y)
                truth[x, y] = Float(a + b * centre)
                // The left point u lands at u − (a + b·u) in the right image.
                right[x, y] = texture((centre + a) / (1 - b), y)
            }
        }
        return (left, right, truth)
    }

    /// The image flipped left to right.
    static func mirrored<T>(_ image: Raster<T>) -> Raster<T> {
        var out = image
        for y in 0..<image.height { for x in 0..<image.width { out[x, y] = image[image.width - 1 - x, y] } }
        return out
    }
}
