/// Stand-in for CoreFoundation's memory allocator, which corelibs Foundation on Linux does not
/// expose. OpenCapture never allocates through it; pass `kCFAllocatorDefault` or `nil`.
public final class CFAllocator: Sendable {
    private init() {}
}

/// The default allocator. As on Apple platforms this is a null allocator reference (`nil`),
/// which means "use the default".
public let kCFAllocatorDefault: CFAllocator? = nil
