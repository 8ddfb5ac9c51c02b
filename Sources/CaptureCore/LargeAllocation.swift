#if canImport(Glibc)
import Glibc
#endif

/// Memory for a whole-frame working buffer, asked of the kernel in 2 MB pages where it allows them (transparent huge
/// pages, `madvise` mode): a 72 MB frame then costs 36 page faults instead of 18,000, and reading it across rows
/// misses the TLB far less. Falls back to ordinary pages; free with `deallocate`.
package enum LargeAllocation {
    /// Alignment (and page size) of a huge page.
    static let hugePage = 2 << 20

    /// Uninitialised memory for `capacity` values of `type`, aligned to a huge page when it spans at least one.
    package static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(1, capacity) * MemoryLayout<T>.stride
        guard bytes >= hugePage else { return .allocate(capacity: max(1, capacity)) }
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, hugePage, bytes) == 0, let memory else { return .allocate(capacity: capacity) }
        adviseHugePages(memory, bytes: bytes)
        return memory.bindMemory(to: T.self, capacity: capacity)
    }

    /// Asks for huge pages over the 2 MB-aligned part of fresh, untouched memory (a large array's buffer before it is
    /// written): the pages it is then written through fault in 2 MB at a time.
    package static func adviseHugePages(_ base: UnsafeMutableRawPointer, bytes: Int) {
        let start = (Int(bitPattern: base) + hugePage - 1) / hugePage * hugePage
        let end = (Int(bitPattern: base) + bytes) / hugePage * hugePage
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }

    /// An array of `count` copies of `value` whose buffer is advised huge pages before it is written.
    package static func array<T: BitwiseCopyable>(repeating value: T, count: Int) -> [T] {
        guard count * MemoryLayout<T>.stride >= 2 * hugePage else { return Array(repeating: value, count: count) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress {
                let bytes = count * MemoryLayout<T>.stride
                adviseHugePages(base, bytes: bytes)
                // Filled by doubling copies of the bytes written so far: a handful of memcpy calls, where an element
                // at a time costs a value-witness call per element in this unspecialised generic code.
                base.initialize(to: value)
                let raw = UnsafeMutableRawPointer(base)
                var done = MemoryLayout<T>.stride
                while done < bytes {
                    let piece = min(done, bytes - done)
                    (raw + done).copyMemory(from: raw, byteCount: piece)
                    done += piece
                }
            }
            initialized = count
        }
    }

    /// Frees memory from `allocate`.
    package static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        free(pointer)
    }
}
