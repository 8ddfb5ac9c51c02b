import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file mapped read-only into memory for as long as the object lives: its pages come straight from the page
/// cache, with no copy and no fresh memory to fault in (how the render cache hands a first photo its planes).
///
/// The mapping is private and never written; the render cache replaces an entry by renaming a new file over it,
/// which leaves an existing mapping of the old one intact.
final class MappedFile: Sendable {
    /// Start of the mapping (page-aligned); immutable and read-only, so sharing it across threads is safe.
    nonisolated(unsafe) let base: UnsafeRawPointer
    /// Bytes mapped (the file's size when it was mapped).
    let count: Int

    /// Maps the file open on `fd` (which may be closed afterwards); nil when it is empty or cannot be mapped.
    init?(fd: Int32, count: Int) {
        guard count > 0 else { return nil }
        let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let address, address != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(address)
        self.count = count
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), count) }
}
