import Foundation

/// A stored property guarded by its own lock, for classes whose public `var`s may be set on one
/// thread while another reads them (Apple's settings and connection objects, for example).
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

    public var wrappedValue: Value {
        get { box.lock.withLock { box.value } }
        nonmutating set { box.lock.withLock { box.value = newValue } }
    }
}
