import Foundation

/// A value shared between threads in a test, guarded by a lock ThreadSanitizer understands.
///
/// Use it instead of `Synchronization.Mutex` and `Atomic` in tests: on Linux their lock and atomics
/// are not visible to ThreadSanitizer, so `swift test --sanitize=thread` reports races inside
/// correctly locked code.
///
/// ```swift
/// let seen = Locked([Int]())
/// DispatchQueue.concurrentPerform(iterations: 8) { i in seen.withLock { $0.append(i) } }
/// #expect(seen.value.sorted() == Array(0..<8))
/// ```
///
/// `@unchecked Sendable`: `lock` (an NSLock, i.e. a pthread mutex) guards `stored`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// Wraps `value`.
    public init(_ value: Value) { stored = value }

    /// Runs `body` with exclusive access to the value and returns its result.
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// A copy of the value, read under the lock.
    public var value: Value { withLock { $0 } }
}
