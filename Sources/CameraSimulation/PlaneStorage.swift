/// The Floats of one rendered plane: an array (a fresh render) or a stretch of a render-cache file mapped into
/// memory (`MappedFile`: read in place, not copied).
struct PlaneStorage: Sendable {
    private let array: [Float]
    private let file: MappedFile?
    /// Bytes from the mapping's start to the first Float (a multiple of the Float's alignment).
    private let byteOffset: Int
    /// Number of Floats.
    let count: Int

    init(_ array: [Float]) {
        self.array = array
        file = nil
        byteOffset = 0
        count = array.count
    }

    /// `count` Floats at `byteOffset` into `file`; nil when they do not lie within it aligned.
    init?(file: MappedFile, byteOffset: Int, count: Int) {
        guard byteOffset >= 0, count >= 0, byteOffset % MemoryLayout<Float>.alignment == 0,
              byteOffset + count * MemoryLayout<Float>.stride <= file.count else { return nil }
        array = []
        self.file = file
        self.byteOffset = byteOffset
        self.count = count
    }

    /// Calls `body` with the Floats in place.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        guard let file else { return try array.withUnsafeBufferPointer(body) }
        let start = (file.base + byteOffset).bindMemory(to: Float.self, capacity: count)
        return try body(UnsafeBufferPointer(start: start, count: count))
    }

    subscript(i: Int) -> Float {
        precondition(i >= 0 && i < count, "plane index out of range")
        return withUnsafeBufferPointer { $0[i] }
    }

    /// The Floats as an array (a copy when mapped).
    var values: [Float] { file == nil ? array : withUnsafeBufferPointer { Array($0) } }
}
