/// The values of one rendered plane (Floats of the scene's planes, Int8 deviates of the fixed-pattern noise): an array
/// (made in this process) or a stretch of a render-cache file mapped into memory (`MappedFile`: read in place, not
/// copied).
struct PlaneStorage<Element: BitwiseCopyable & Sendable>: Sendable {
    private let array: [Element]
    private let file: MappedFile?
    /// Bytes from the mapping's start to the first value (a multiple of the value's alignment).
    private let byteOffset: Int
    /// Number of values.
    let count: Int

    init(_ array: [Element]) {
        self.array = array
        file = nil
        byteOffset = 0
        count = array.count
    }

    /// `count` values at `byteOffset` into `file`; nil when they do not lie within it aligned.
    init?(file: MappedFile, byteOffset: Int, count: Int) {
        guard byteOffset >= 0, count >= 0, byteOffset % MemoryLayout<Element>.alignment == 0,
              byteOffset + count * MemoryLayout<Element>.stride <= file.count else { return nil }
        array = []
        self.file = file
        self.byteOffset = byteOffset
        self.count = count
    }

    /// Calls `body` with the values in place.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        guard let file else { return try array.withUnsafeBufferPointer(body) }
        let start = (file.base + byteOffset).bindMemory(to: Element.self, capacity: count)
        return try body(UnsafeBufferPointer(start: start, count: count))
    }

    subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "plane index out of range")
        return withUnsafeBufferPointer { $0[i] }
    }

    /// The values as an array (a copy when mapped).
    var values: [Element] { file == nil ? array : withUnsafeBufferPointer { Array($0) } }
}
