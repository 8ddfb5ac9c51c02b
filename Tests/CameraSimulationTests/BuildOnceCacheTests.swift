import Dispatch
import Foundation
import Testing
@testable import CameraSimulation

/// The render caches build each key once, outside their lock: another key's build never waits behind a long one.
@Suite struct BuildOnceCacheTests {
    /// Counts builds across threads.
    final class Counter: @unchecked Sendable {
        /// `@unchecked Sendable`: `lock` guards `count`.
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func aSlowBuildDoesNotHoldUpAnotherKey() {
        let cache = BuildOnceCache<Int, String>()
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0), slowDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = cache.value(for: 1) {
                started.signal()
                release.wait()
                return "slow"
            }
            slowDone.signal()
        }
        started.wait()
        // Key 1 is being built and will not finish until released: key 2 must still be built and returned.
        let other = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            #expect(cache.value(for: 2) { "fast" } == "fast")
            other.signal()
        }
        let finishedWhileBlocked = other.wait(timeout: .now() + 30) == .success
        release.signal()
        slowDone.wait()
        #expect(finishedWhileBlocked, "key 2 waited for key 1's build")
        #expect(cache[1] == "slow")
        #expect(cache[2] == "fast")
    }

    @Test func concurrentCallersForOneKeyShareOneBuild() {
        let cache = BuildOnceCache<Int, Int>()
        let builds = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let value = cache.value(for: 7) {
                builds.increment()
                Thread.sleep(forTimeInterval: 0.05)
                return 49
            }
            #expect(value == 49)
        }
        #expect(builds.value == 1)
    }

    @Test func theLimitKeepsTheNewestValues() {
        let cache = BuildOnceCache<Int, Int>(limit: 2)
        for key in 1...3 { _ = cache.value(for: key) { key * 10 } }
        #expect(cache[1] == nil)
        #expect(cache[2] == 20)
        #expect(cache[3] == 30)
        #expect(Set(cache.keys) == [2, 3])
        // An evicted key is built again.
        let builds = Counter()
        #expect(cache.value(for: 1) { builds.increment(); return 11 } == 11)
        #expect(builds.value == 1)
        #expect(cache[2] == nil)
    }

    @Test func removeAllDuringABuildKeepsItsValueOut() {
        let cache = BuildOnceCache<Int, Int>()
        _ = cache.value(for: 1) { 1 }
        let value = cache.value(for: 2) {
            cache.removeAll()
            return 2
        }
        #expect(value == 2)
        #expect(cache[1] == nil)
        #expect(cache[2] == nil, "a build that started before removeAll must not store its value")
        #expect(cache.value(for: 2) { 3 } == 3)
    }
}
