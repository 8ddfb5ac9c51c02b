import CTIFF
import CaptureCore
import Foundation

/// An in-memory file for `TIFFClientOpen`: a growable buffer libtiff writes into, sized up front
/// so large raw strips are copied once (into huge pages where the kernel gives them), or borrowed
/// bytes libtiff reads from.
final class TIFFMemoryFile {
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var length = 0
    private var position = 0
    private let owned: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 4096)
        buffer = UnsafeMutableRawPointer(LargeAllocation.allocate(UInt8.self, capacity: self.capacity))
        owned = true
        opencapture_tiff_silence()
    }

    /// Read-only view of `bytes`, which must outlive the file and every TIFF opened on it.
    init(borrowing bytes: UnsafeRawBufferPointer) {
        buffer = UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 16)!)
        capacity = bytes.count
        length = bytes.count
        owned = false
        opencapture_tiff_silence()
    }

    deinit { if owned { free(buffer) } }

    /// Opens the borrowed bytes for reading (no memory mapping, IFD0 current).
    func openForReading() -> OpaquePointer? { open(mode: "rm") }

    /// Opens a little-endian classic TIFF for writing; close it with `TIFFClose` before `data`.
    func openForWriting() -> OpaquePointer? { open(mode: "wl") }

    private func open(mode: String) -> OpaquePointer? {
        let handle = Unmanaged.passUnretained(self).toOpaque()
        return TIFFClientOpen("memory.dng", mode, handle,
            { handle, buffer, size in TIFFMemoryFile.from(handle).read(buffer, size) },
            { handle, buffer, size in TIFFMemoryFile.from(handle).write(buffer, size) },
            { handle, offset, whence in TIFFMemoryFile.from(handle).seek(offset, whence) },
            { _ in 0 },
            { handle in toff_t(TIFFMemoryFile.from(handle).length) },
            { _, _, _ in 0 },
            { _, _, _ in })
    }

    var count: Int { length }

    /// Appends bytes after everything written so far.
    func append(_ bytes: [UInt8]) {
        position = length
        bytes.withUnsafeBytes { _ = write(UnsafeMutableRawPointer(mutating: $0.baseAddress), tmsize_t($0.count)) }
    }

    /// In-place access to the bytes written so far (for patching values libtiff cannot write).
    func withBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: buffer, count: length))
    }

    /// Hands the bytes over without copying; the file must not be used afterwards.
    func takeData() -> Data {
        assert(owned, "only a written file can be taken")
        let taken = buffer, count = length
        buffer = UnsafeMutableRawPointer(LargeAllocation.allocate(UInt8.self, capacity: 1))
        capacity = 1
        length = 0
        position = 0
        return Data(bytesNoCopy: taken, count: count, deallocator: .free)
    }

    private static func from(_ handle: thandle_t?) -> TIFFMemoryFile {
        Unmanaged<TIFFMemoryFile>.fromOpaque(UnsafeRawPointer(handle!)).takeUnretainedValue()
    }

    private func read(_ destination: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard let destination, size > 0, position < length else { return 0 }
        let count = min(Int(size), length - position)
        destination.copyMemory(from: buffer + position, byteCount: count)
        position += count
        return tmsize_t(count)
    }

    private func write(_ source: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard owned, let source, size > 0 else { return 0 }
        let end = position + Int(size)
        if end > capacity {
            let grown = max(end, capacity * 2)
            let bigger = UnsafeMutableRawPointer(LargeAllocation.allocate(UInt8.self, capacity: grown))
            bigger.copyMemory(from: buffer, byteCount: length)
            free(buffer)
            buffer = bigger
            capacity = grown
        }
        if position > length { (buffer + length).initializeMemory(as: UInt8.self, repeating: 0, count: position - length) }
        (buffer + position).copyMemory(from: source, byteCount: Int(size))
        position = end
        length = max(length, end)
        return size
    }

    private func seek(_ offset: toff_t, _ whence: Int32) -> toff_t {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = length
        default: base = 0
        }
        let target = base + Int(Int64(bitPattern: offset))
        guard target >= 0 else { return toff_t(bitPattern: -1) }
        position = target
        return toff_t(target)
    }
}
