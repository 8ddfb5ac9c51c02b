#if canImport(Glibc)
import Glibc
#endif

/// Memory for a large working buffer (the ISP's row windows, a frame's raw samples), asked of the kernel in 2 MB pages
/// where it allows them (transparent huge pages in `madvise` or `always` mode; a hint, nothing happens with `never`):
/// a 72 MB buffer then costs 36 page faults instead of 18,000, and reads across its rows miss the TLB far less.
package enum LargeAllocation {
    /// Alignment (and page size) of a huge page.
    static let hugePage = 2 << 20

    /// Uninitialised memory for `capacity` values of `type` (posix_memalign: aligned to a huge page when it spans at
    /// least one, else to 64 bytes); free it with `deallocate`.
    package static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(1, capacity) * MemoryLayout<T>.stride
        let alignment = max(bytes >= hugePage ? hugePage : 64, MemoryLayout<T>.alignment)
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, alignment, bytes) == 0, let memory else {
            fatalError("out of memory: \(bytes) bytes")   // as UnsafeMutablePointer.allocate does
        }
        if bytes >= hugePage { adviseHugePages(memory, bytes: bytes) }
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

    /// Frees memory from `allocate`.
    package static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        free(pointer)
    }
}
