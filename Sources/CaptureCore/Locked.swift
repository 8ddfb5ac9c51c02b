import Foundation

/// A value guarded by its own lock: as a property wrapper for classes whose public `var`s may be set
/// on one thread while another reads them (Apple's settings and connection objects), or as a plain
/// `let` with `withLock`. An `NSLock` rather than `Synchronization.Mutex`, which ThreadSanitizer
/// does not see on Linux (it reports false races through it).
@propertyWrapper
public struct Locked<Value>: @unchecked Sendable {
    /// `@unchecked Sendable`: `lock` guards `value`, the only mutable field.
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private let box: Box

    public init(wrappedValue: Value) { box = Box(wrappedValue) }

    public init(_ value: Value) { box = Box(value) }

    public var wrappedValue: Value {
        get { box.lock.withLock { box.value } }
        nonmutating set { box.lock.withLock { box.value = newValue } }
    }

    /// Reads and changes the value under the lock in one step.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try box.lock.withLock { try body(&box.value) }
    }
}
