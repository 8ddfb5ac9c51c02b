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
        storage = LargeAllocation.array(repeating: value, count: width * height * channels)
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
