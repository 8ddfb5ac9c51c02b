/// CoreVideo option-flag storage (CVBase.h `CVOptionFlags`).
public typealias CVOptionFlags = UInt64

/// Flags for `CVPixelBufferLockBaseAddress` / `CVPixelBufferUnlockBaseAddress`.
/// Apple requires the same flags on lock and unlock; OpenCapture accepts any and does not
/// enforce read-only access.
public struct CVPixelBufferLockFlags: OptionSet, Hashable, Sendable {
    public var rawValue: CVOptionFlags

    public init(rawValue: CVOptionFlags) { self.rawValue = rawValue }

    /// The caller will only read the memory while the buffer is locked.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}
