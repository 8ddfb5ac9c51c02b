/// A single-channel Float image in manually managed memory, so banded loops on several threads can
/// write disjoint rows without copy-on-write checks. Internal scratch type of the pyramid code.
final class FloatPlane {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<Float>

    init(width: Int, height: Int, zeroed: Bool = false) {
        self.width = width
        self.height = height
        base = .allocate(capacity: max(1, width * height))
        if zeroed { base.initialize(repeating: 0, count: max(1, width * height)) }
    }

    deinit { base.deallocate() }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Float> { base + y * width }
}

/// Mirror an index into 0..<n without repeating the edge sample (OpenCV's BORDER_REFLECT_101).
@inline(__always)
func reflect101(_ i: Int, _ n: Int) -> Int {
    if n == 1 { return 0 }
    var i = i
    if i < 0 { i = -i }
    if i >= n { i = 2 * n - 2 - i }
    return min(max(i, 0), n - 1)
}
