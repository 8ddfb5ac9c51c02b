import CTIFF
import CaptureCore
import Foundation

/// How MediaFormats' writers give a finished file its name: fsync it under a temporary name in the destination
/// folder, then rename it over the final name (or, not replacing, link it there only if the name is free), so a reader
/// never sees a partial file and a failure leaves none.
public enum FilePlacement {
    /// A temporary name beside `url`, hidden, marked with `tag` and ending in `pathExtension` (when not empty). It fits
    /// in a file name's 255 bytes whenever `url`'s name does: a long final name is shortened in it.
    public static func temporaryURL(beside url: URL, tag: String, pathExtension: String = "") -> URL {
        let suffix = ".\(tag)-\(UUID().uuidString.prefix(8))" + (pathExtension.isEmpty ? "" : ".\(pathExtension)")
        var name = Substring(url.lastPathComponent)
        while 1 + name.utf8.count + suffix.utf8.count > 255, !name.isEmpty { name = name.dropLast() }
        return url.deletingLastPathComponent().appendingPathComponent("." + name + suffix)
    }

    /// Makes `temporary` durable and renames it to `url` (without `replacing`, only if nothing is there: see
    /// `placeWithoutReplacing`); on failure deletes it and throws `.writeFailed`.
    public static func moveIntoPlace(_ temporary: URL, to url: URL, replacing: Bool = true) throws {
        defer { TemporaryFiles.release(temporary) }
        if let handle = try? FileHandle(forUpdating: temporary) {
            try? handle.synchronize()
            try? handle.close()
        }
        let code = replacing ? (rename(temporary.path, url.path) == 0 ? 0 : errno) : placeWithoutReplacing(temporary, at: url)
        guard code == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw MediaFormatError.writeFailed("\(url.path): \(SystemErrorReason.text(errno: code))")
        }
    }

    /// Gives the written file `temporary` the name `url` only if nothing has it (a symbolic link that points nowhere
    /// included): a hard link, which fails if the name is taken, then the temporary name removed; on a file system
    /// without hard links, the name is checked just before a rename. Returns 0, or the `errno` (`EEXIST`: the name was
    /// taken); on failure the temporary file is left to the caller.
    public static func placeWithoutReplacing(_ temporary: URL, at url: URL) -> Int32 {
        if link(temporary.path, url.path) == 0 {
            unlink(temporary.path)
            return 0
        }
        let code = errno
        guard [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code) else { return code }
        var status = stat()
        if lstat(url.path, &status) == 0 { return EEXIST }
        return rename(temporary.path, url.path) == 0 ? 0 : errno
    }

    /// Writes `data` to `url` through a temporary name beside it (over a file already there unless not `replacing`).
    public static func write(_ data: Data, to url: URL, replacing: Bool = true) throws {
        let temporary = temporaryURL(beside: url, tag: "partial")
        TemporaryFiles.register(temporary)
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw MediaFormatError.writeFailed("\(url.path): \(error.localizedDescription)")
        }
        try moveIntoPlace(temporary, to: url, replacing: replacing)
    }

    /// Starts writing `count` bytes at `offset` of the file open on `descriptor` back to disk without waiting
    /// (Linux `sync_file_range`, SYNC_FILE_RANGE_WRITE): a writer calls it after each large piece, so the flush that
    /// ends its write waits for what is left instead of the whole file. Best effort; errors surface at the flush.
    public static func startWriteback(_ descriptor: Int32, offset: Int, count: Int) {
        _ = opencapture_start_writeback(descriptor, Int64(offset), Int64(count))
    }
}
