import Foundation

/// A cache whose values are built on demand, each key at most once at a time and outside the lock: callers
/// asking for a key being built wait for that build, callers asking for any other key do not. (A render of the
/// 12 MP scene takes seconds on a cold cache; a stream asking for its own small render must not wait behind it.)
///
/// With a `limit`, only the most recently stored `limit` values are kept. `removeAll()` drops the values, and
/// builds that started before it hand their value to their callers without storing it.
///
/// `@unchecked Sendable`: `condition` guards every mutable field (`values`, `order`, `building`, `generation`).
final class BuildOnceCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Key: Value] = [:]
    /// Keys in the order their values were stored (oldest first), for the limit.
    private var order: [Key] = []
    private var building: Set<Key> = []
    private var generation = 0
    private let limit: Int?

    init(limit: Int? = nil) {
        self.limit = limit.map { max(1, $0) }
    }

    /// The stored value for `key`, without building or waiting.
    subscript(key: Key) -> Value? {
        condition.withLock { values[key] }
    }

    /// Keys with a stored value.
    var keys: [Key] {
        condition.withLock { Array(values.keys) }
    }

    /// The value for `key`: the stored one; or, while another caller builds it, the value that build stores (waiting
    /// for it; if a `removeAll` or an eviction dropped it meanwhile, this caller builds it again); or `build()`'s,
    /// which is then stored.
    func value(for key: Key, build: () -> Value) -> Value {
        condition.lock()
        while values[key] == nil && building.contains(key) { condition.wait() }
        if let stored = values[key] {
            condition.unlock()
            return stored
        }
        building.insert(key)
        let started = generation
        condition.unlock()
        let value = build()
        condition.withLock {
            building.remove(key)
            if started == generation { store(value, for: key) }
            condition.broadcast()
        }
        return value
    }

    /// Drops every stored value (builds under way finish, but do not store theirs).
    func removeAll() {
        condition.withLock {
            values.removeAll()
            order.removeAll()
            generation += 1
        }
    }

    /// Stores `value` (the lock held), evicting the oldest beyond the limit.
    private func store(_ value: Value, for key: Key) {
        if values.updateValue(value, forKey: key) == nil { order.append(key) }
        if let limit, order.count > limit { values[order.removeFirst()] = nil }
    }
}
