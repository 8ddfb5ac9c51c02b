import Dispatch

/// Splits work over row bands and runs the bands on all cores.
public enum Parallel {
    /// Number of worker threads to aim for.
    public static var coreCount: Int { max(1, ProcessInfoCores.count) }

    /// Calls `body(rows)` for consecutive bands of about `bandHeight` rows covering `0..<height`,
    /// concurrently. Bands are fixed by `height` and `bandHeight` only, so per-band random seeds
    /// give the same pixels on any machine.
    public static func forEachBand(height: Int, bandHeight: Int = 64, _ body: (Range<Int>) -> Void) {
        guard height > 0 else { return }
        let band = max(1, bandHeight)
        let count = (height + band - 1) / band
        if count == 1 { body(0..<height); return }
        withoutActuallyEscaping(body) { body in
            // Bands are disjoint; the caller's closure is responsible for writing only its rows.
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { i in
                body((i * band)..<min(height, (i + 1) * band))
            }
        }
    }

    /// Like `forEachBand`, also passing the band index (for per-band seeds or partial results).
    public static func forEachBandIndexed(height: Int, bandHeight: Int = 64, _ body: (Int, Range<Int>) -> Void) {
        guard height > 0 else { return }
        let band = max(1, bandHeight)
        let count = (height + band - 1) / band
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { i in
                body(i, (i * band)..<min(height, (i + 1) * band))
            }
        }
    }
}

import Foundation

enum ProcessInfoCores {
    static let count = ProcessInfo.processInfo.activeProcessorCount
}
