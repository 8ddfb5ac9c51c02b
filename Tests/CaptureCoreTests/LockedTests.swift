import CaptureCore
import Dispatch
import Testing

/// `Locked` serialises updates from many threads (an NSLock, which ThreadSanitizer sees).
@Suite struct LockedTests {
    @Test func lockedSerialisesConcurrentUpdates() {
        let seen = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 1_000) { i in seen.withLock { $0.append(i) } }
        #expect(seen.wrappedValue.sorted() == Array(0..<1_000))
        let count = seen.withLock { values -> Int in values.removeAll(); return values.count }
        #expect(count == 0 && seen.wrappedValue.isEmpty)
    }

    @Test func propertyWrapperReadsAndWritesUnderItsLock() {
        final class Box: @unchecked Sendable {
            @Locked var count = 0
            func increment() { _count.withLock { $0 += 1 } }
        }
        let box = Box()
        DispatchQueue.concurrentPerform(iterations: 100) { _ in box.increment() }
        #expect(box.count == 100)
        box.count = 7
        #expect(box.count == 7)
    }
}
