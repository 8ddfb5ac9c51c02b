import Dispatch
import Foundation

/// Runs work on all cores: row bands of an image (`forEachBand`) or independent items (`map`).
///
/// `forEachBandIndexed` is the one primitive; every other helper here, and every band loop in the
/// package (`ISPBand` included), cuts its bands with `RowBands` and runs them through it.
public enum Parallel {
    /// Number of worker threads to aim for.
    public static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Calls `body(index, rows)` once for every band of `RowBands(height:bandHeight:)`,
    /// concurrently, and returns when all have finished. A single band runs on the calling thread.
    ///
    /// The body is not `@Sendable` because band loops write image memory through pointers, which
    /// Swift cannot check: each call must write only memory that belongs to its own band (its rows,
    /// or slot `index` of a per-band result array), and only read memory no band writes.
    /// Prefer `map` when each item produces a value.
    public static func forEachBandIndexed(height: Int, bandHeight: Int = 64, _ body: (Int, Range<Int>) -> Void) {
        let bands = RowBands(height: height, bandHeight: bandHeight)
        switch bands.count {
        case 0: return
        case 1: body(0, bands[0])
        default:
            withoutActuallyEscaping(body) { body in
                // The one unchecked hand-off in the package: `concurrentPerform` needs a Sendable
                // closure, and the contract above (disjoint writes per band) is what makes it safe.
                nonisolated(unsafe) let body = body
                DispatchQueue.concurrentPerform(iterations: bands.count) { body($0, bands[$0]) }
            }
        }
    }

    /// Calls `body(rows)` for every band of `RowBands(height:bandHeight:)`, concurrently
    /// (`forEachBandIndexed` without the index; the same contract).
    public static func forEachBand(height: Int, bandHeight: Int = 64, _ body: (Range<Int>) -> Void) {
        forEachBandIndexed(height: height, bandHeight: bandHeight) { _, rows in body(rows) }
    }

    /// `[transform(0), transform(1), …, transform(count − 1)]`, computed concurrently, in index order.
    /// The transform is `@Sendable`: it shares nothing mutable, and the results cross threads safely.
    /// When some calls throw, every call still runs and the error of the lowest index is thrown.
    public static func map<T: Sendable, E: Error>(count: Int, _ transform: @Sendable (Int) throws(E) -> T) throws(E) -> [T] {
        guard count > 0 else { return [] }
        let slots = UnsafeMutableBufferPointer<Result<T, E>?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        // Each call writes only slot i (forEachBandIndexed's contract with bands of one row).
        nonisolated(unsafe) let output = slots
        forEachBandIndexed(height: count, bandHeight: 1) { index, _ in
            output[index] = Result { () throws(E) -> T in try transform(index) }
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for slot in slots {
            guard let slot else { preconditionFailure("Parallel.map: an item did not run") }
            values.append(try slot.get())
        }
        return values
    }
}
