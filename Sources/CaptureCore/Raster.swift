/// A row-major image of `channels` interleaved samples per pixel, stored contiguously
/// (row stride = width × channels). Value semantics; hot loops use `withUnsafe…BufferPointer`.
public struct Raster<Element: BitwiseCopyable & Sendable>: Sendable {
    public let width: Int
    public let height: Int
    public let channels: Int
    public var storage: [Element]

    public init(width: Int, height: Int, channels: Int = 1, repeating value: Element) {
        precondition(width >= 0 && height >= 0 && channels > 0, "invalid raster shape")
        self.width = width
        self.height = height
        self.channels = channels
        // (Array's own fill: this initialiser stays inlinable into other modules, so it is specialised for the
        // element type there; through a package helper it would fill element by element through value witnesses.)
        storage = Array(repeating: value, count: width * height * channels)
    }

    /// A raster whose every element `body` writes (no zero fill first): whole-frame outputs written by parallel bands,
    /// whose pages then fault in on the workers that write them. The buffer is advised huge pages.
    package init(width: Int, height: Int, channels: Int, writingEveryElement body: (UnsafeMutablePointer<Element>) -> Void) {
        precondition(width >= 0 && height >= 0 && channels > 0, "invalid raster shape")
        let count = width * height * channels
        self.width = width
        self.height = height
        self.channels = channels
        storage = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress, count > 0 {
                LargeAllocation.adviseHugePages(base, bytes: count * MemoryLayout<Element>.stride)
                body(base)
            }
            initialized = count
        }
    }

    public init(width: Int, height: Int, channels: Int = 1, storage: [Element]) {
        precondition(storage.count == width * height * channels, "storage does not match raster shape")
        self.width = width
        self.height = height
        self.channels = channels
        self.storage = storage
    }

    public var size: Size { Size(width: width, height: height) }
    /// Elements per row.
    public var rowStride: Int { width * channels }

    @inline(__always)
    public subscript(x: Int, y: Int, c: Int) -> Element {
        get { storage[(y * width + x) * channels + c] }
        set { storage[(y * width + x) * channels + c] = newValue }
    }

    @inline(__always)
    public subscript(x: Int, y: Int) -> Element {
        get { storage[(y * width + x) * channels] }
        set { storage[(y * width + x) * channels] = newValue }
    }
}

extension Raster: Equatable where Element: Equatable {}

extension Raster where Element: Numeric {
    /// A zero-filled raster.
    public init(width: Int, height: Int, channels: Int = 1) {
        self.init(width: width, height: height, channels: channels, repeating: .zero)
    }
}
