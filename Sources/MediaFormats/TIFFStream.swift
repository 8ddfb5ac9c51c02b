import CTIFF
import CaptureCore
import Foundation

/// A file for `TIFFClientOpen`: a growable buffer libtiff writes into (sized up front so large strips are copied once,
/// into huge pages where the kernel gives them), borrowed bytes libtiff reads from, or an open file descriptor libtiff
/// writes through (a developed photo goes from its pixels to the page cache with no whole-file buffer between).
final class TIFFStream {
    private enum Storage {
        case owned(UnsafeMutableRawPointer, capacity: Int)
        case borrowed(UnsafeRawPointer)
        case descriptor(Int32)
    }

    private var storage: Storage
    private var length = 0
    private var position = 0
    /// The first write or read error of a descriptor (errno), reported by `checkDescriptor`.
    private var failure: Int32?
    /// Where the next append goes instead of the end (`placeNextAppend(at:)`).
    private var nextAppend: Int?

    init(capacity: Int) {
        let capacity = max(capacity, 4096)
        storage = .owned(UnsafeMutableRawPointer(LargeAllocation.allocate(UInt8.self, capacity: capacity)), capacity: capacity)
        opencapture_tiff_silence()
    }

    /// Read-only view of `bytes`, which must outlive the stream and every TIFF opened on it.
    init(borrowing bytes: UnsafeRawBufferPointer) {
        storage = .borrowed(bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 16)!)
        length = bytes.count
        opencapture_tiff_silence()
    }

    /// Writes to `descriptor` (an empty file open for reading and writing) from its start; the caller closes it.
    init(writingTo descriptor: Int32) {
        storage = .descriptor(descriptor)
        opencapture_tiff_silence()
    }

    deinit { if case .owned(let buffer, _) = storage { free(buffer) } }

    /// Opens the borrowed bytes for reading (no memory mapping, IFD0 current).
    func openForReading() -> OpaquePointer? { open(mode: "rm") }

    /// Opens a little-endian classic TIFF for writing; close it with `TIFFClose` before taking the data.
    func openForWriting() -> OpaquePointer? { open(mode: "wl") }

    private func open(mode: String) -> OpaquePointer? {
        let handle = Unmanaged.passUnretained(self).toOpaque()
        return TIFFClientOpen("stream.tif", mode, handle,
            { handle, buffer, size in TIFFStream.from(handle).read(buffer, size) },
            { handle, buffer, size in TIFFStream.from(handle).write(buffer, size) },
            { handle, offset, whence in TIFFStream.from(handle).seek(offset, whence) },
            { _ in 0 },
            { handle in toff_t(TIFFStream.from(handle).length) },
            { _, _, _ in 0 },
            { _, _, _ in })
    }

    /// Bytes written so far.
    var count: Int { length }

    /// Has the next seek to the end answer `offset` instead (once; `nil` undoes it). libtiff places a strip it has not
    /// written yet where that seek says the file ends, so strips written out of order can each be put where they
    /// would be had they come in order (`TIFFStripWriter`); the bytes in between read as zeros until written.
    func placeNextAppend(at offset: Int?) { nextAppend = offset }

    /// Appends bytes after everything written so far.
    func append(_ bytes: [UInt8]) {
        position = length
        bytes.withUnsafeBytes { _ = write(UnsafeMutableRawPointer(mutating: $0.baseAddress), tmsize_t($0.count)) }
    }

    /// `count` bytes at `offset` (fewer where the stream ends), for patching values libtiff cannot write.
    func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, count > 0, offset < length else { return [] }
        let available = min(count, length - offset)
        return [UInt8](unsafeUninitializedCapacity: available) { out, initialized in
            position = offset
            initialized = max(0, Int(read(out.baseAddress, tmsize_t(available))))
        }
    }

    /// Writes `bytes` over the stream at `offset` (inside what was written).
    func overwrite(_ bytes: [UInt8], at offset: Int) {
        position = offset
        bytes.withUnsafeBytes { _ = write(UnsafeMutableRawPointer(mutating: $0.baseAddress), tmsize_t($0.count)) }
    }

    /// Hands the written bytes over without copying; the stream must not be used afterwards.
    func takeData() -> Data {
        guard case .owned(let taken, _) = storage else { preconditionFailure("only a stream written to memory can be taken") }
        let count = length
        storage = .borrowed(UnsafeRawPointer(bitPattern: 16)!)
        length = 0
        position = 0
        return Data(bytesNoCopy: taken, count: count, deallocator: .free)
    }

    /// Throws the first error writing or reading the descriptor met (libtiff only sees a short count) as
    /// `.writeFailed` with the system's reason (`SystemErrorReason`'s wording).
    func checkDescriptor() throws {
        if let failure { throw MediaFormatError.writeFailed(SystemErrorReason.text(errno: failure)) }
    }

    private static func from(_ handle: thandle_t?) -> TIFFStream {
        Unmanaged<TIFFStream>.fromOpaque(UnsafeRawPointer(handle!)).takeUnretainedValue()
    }

    private func read(_ destination: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard let destination, size > 0, position < length else { return 0 }
        let count = min(Int(size), length - position)
        switch storage {
        case .owned(let buffer, _): destination.copyMemory(from: buffer + position, byteCount: count)
        case .borrowed(let buffer): destination.copyMemory(from: buffer + position, byteCount: count)
        case .descriptor(let descriptor):
            var done = 0
            while done < count {
                let n = pread(descriptor, destination + done, count - done, off_t(position + done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { failure = failure ?? (n < 0 ? errno : EIO); break }
                done += n
            }
            position += done
            return tmsize_t(done)
        }
        position += count
        return tmsize_t(count)
    }

    private func write(_ source: tdata_t?, _ size: tmsize_t) -> tmsize_t {
        guard let source, size > 0 else { return 0 }
        let end = position + Int(size)
        switch storage {
        case .borrowed: return 0
        case .owned(var buffer, var capacity):
            if end > capacity {
                let grown = max(end, capacity * 2)
                let bigger = UnsafeMutableRawPointer(LargeAllocation.allocate(UInt8.self, capacity: grown))
                bigger.copyMemory(from: buffer, byteCount: length)
                free(buffer)
                (buffer, capacity) = (bigger, grown)
                storage = .owned(buffer, capacity: capacity)
            }
            if position > length { (buffer + length).initializeMemory(as: UInt8.self, repeating: 0, count: position - length) }
            (buffer + position).copyMemory(from: source, byteCount: Int(size))
        case .descriptor(let descriptor):
            // A seek past the end leaves a hole the file system reads as zeros, as the buffer's zero fill.
            var done = 0
            while done < Int(size) {
                let n = pwrite(descriptor, source + done, Int(size) - done, off_t(position + done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { failure = failure ?? (n < 0 ? errno : EIO); return tmsize_t(done) }
                done += n
            }
            // Start writing large pieces (strips of pixels) back now, so the flush at the end waits for less.
            if Int(size) >= 1 << 18 { FilePlacement.startWriteback(descriptor, offset: position, count: Int(size)) }
        }
        position = end
        length = max(length, end)
        return size
    }

    private func seek(_ offset: toff_t, _ whence: Int32) -> toff_t {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END:
            base = nextAppend ?? length
            nextAppend = nil
        default: base = 0
        }
        let (target, overflow) = base.addingReportingOverflow(Int(Int64(bitPattern: offset)))
        guard !overflow, target >= 0 else { return toff_t(bitPattern: -1) }
        position = target
        return toff_t(target)
    }
}
