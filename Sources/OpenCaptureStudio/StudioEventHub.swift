import Foundation

/// Fans server-sent events out to every open `/api/events` stream. Each event is one JSON object.
final class StudioEventHub: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `subscribers` and `nextID`, the only mutable fields.
    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0

    /// A stream of events from now on (ended when the client goes away or `end(_:)` is called), and its number.
    func subscribe() -> (id: Int, events: AsyncStream<String>) {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(256))
        let id = lock.withLock { nextID += 1; subscribers[nextID] = continuation; return nextID }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self.subscribers[id] = nil }
        }
        return (id, stream)
    }

    /// Ends subscriber `id`'s stream.
    func end(_ id: Int) {
        lock.withLock { subscribers.removeValue(forKey: id) }?.finish()
    }

    /// Sends `event` (a JSON object) to every subscriber.
    func publish(_ event: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8) else { return }
        let targets = lock.withLock { Array(subscribers.values) }
        for continuation in targets { continuation.yield(text) }
    }

    var subscriberCount: Int { lock.withLock { subscribers.count } }
}
