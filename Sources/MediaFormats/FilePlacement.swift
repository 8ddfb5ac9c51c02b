import CTIFF
import CaptureCore
import Foundation

/// How MediaFormats' writers give a finished file its name: fsync it under a temporary name in the destination
/// folder, then rename it over the final name, so a reader never sees a partial file and a failure leaves none.
public enum FilePlacement {
    /// A temporary name beside `url`, hidden, marked with `tag`.
    public static func temporaryURL(beside url: URL, tag: String) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(tag)-\(UUID().uuidString.prefix(8))")
    }

    /// Makes `temporary` durable and renames it to `url`; on failure deletes it and throws `.writeFailed`.
    public static func moveIntoPlace(_ temporary: URL, to url: URL) throws {
        defer { TemporaryFiles.release(temporary) }
        if let handle = try? FileHandle(forUpdating: temporary) {
            try? handle.synchronize()
            try? handle.close()
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = SystemErrorReason.text(errno: errno)
            try? FileManager.default.removeItem(at: temporary)
            throw MediaFormatError.writeFailed("\(url.path): \(reason)")
        }
    }

    /// Writes `data` to `url` through a temporary name beside it.
    public static func write(_ data: Data, to url: URL) throws {
        let temporary = temporaryURL(beside: url, tag: "partial")
        TemporaryFiles.register(temporary)
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw MediaFormatError.writeFailed("\(url.path): \(error.localizedDescription)")
        }
        try moveIntoPlace(temporary, to: url)
    }

    /// Starts writing `count` bytes at `offset` of the file open on `descriptor` back to disk without waiting
    /// (Linux `sync_file_range`, SYNC_FILE_RANGE_WRITE): a writer calls it after each large piece, so the flush that
    /// ends its write waits for what is left instead of the whole file. Best effort; errors surface at the flush.
    public static func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
        _ = opencapture_start_writeback(descriptor, Int64(offset), Int64(count))
    }
}
