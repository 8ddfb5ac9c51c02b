import CaptureCore
import Foundation
import MediaFormats

/// Writes files so that a failure (a full disk, a writer that throws, a crash) never leaves a
/// partial file under the final name (OpenCapture addition): the bytes go to a hidden temporary file
/// in the destination folder, are flushed to disk, and only then renamed into place. Every file
/// the tools and the `opencapture` command write goes through here.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, replacing an existing file unless `replacing` is false (then a file already
    /// there, or one that appears while `data` is written, is kept and the write throws).
    public static func write(_ data: Data, to url: URL, replacing: Bool = true) throws {
        try write([(data, url)], replacing: replacing)
    }

    /// Writes several files as one: each goes to a temporary file beside its destination and is flushed, and only
    /// when all are written are they renamed into place, in order, and the folders flushed. A failed write (a full
    /// disk, a folder gone) leaves every destination as it was; only a rename failing after others succeeded (which
    /// needs the folder itself to fail), or a crash between the renames, can leave some of the set renamed. Without
    /// `replacing`, a destination taken (by anything, a dangling symbolic link included) when its turn comes keeps
    /// what is there, the files of the set already placed are taken back, and the write throws.
    public static func write(_ files: [(data: Data, url: URL)], replacing: Bool = true) throws {
        var written: [(temporary: URL, url: URL)] = [], placed = 0
        do {
            for (data, url) in files {
                written.append((try writeTemporary(beside: url) { descriptor in
                    try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: url.path) }
                }, url))
            }
            for file in written {
                try place(file.temporary, at: file.url, replacing: replacing)
                TemporaryFiles.release(file.temporary)
                placed += 1
            }
            for folder in Set(written.map { $0.url.deletingLastPathComponent().path }) { syncFolder(folder) }
        } catch {
            // New names this write made are taken back (a replaced file cannot be: only a failing folder gets here then).
            if !replacing { for file in written[..<placed] { unlink(file.url.path) } }
            for file in written[placed...] {
                unlink(file.temporary.path)
                TemporaryFiles.release(file.temporary)
            }
            throw error
        }
    }

    /// Moves a written temporary file to `url`: a rename, or without `replacing` a hard link that fails if anything is
    /// at `url` (then the temporary name is removed). Where the file system has no hard links, the name is checked
    /// just before the rename instead. Throws a `FileAccessError`; the temporary file is left to the caller.
    private static func place(_ temporary: URL, at url: URL, replacing: Bool) throws {
        if !replacing {
            let code = FilePlacement.placeWithoutReplacing(temporary, at: url)
            guard code == 0 else {
                throw FileAccessError(.write, path: url.path, errno: code)
            }
            return
        }
        guard rename(temporary.path, url.path) == 0 else { throw FileAccessError(.write, path: url.path, errno: errno) }
    }

    /// Runs `body` with the file descriptor of a fresh temporary file beside `url` (open for reading and writing),
    /// then flushes it and renames it to `url`. If `body`, the flush or the rename throws, the temporary file is
    /// removed and nothing appears under `url`. `body` must not close the descriptor. Without `replacing`, a file at
    /// `url` when the file is placed is kept and the write throws.
    public static func write(to url: URL, replacing: Bool = true, _ body: (Int32) throws -> Void) throws {
        let temporary = try writeTemporary(beside: url, body)
        defer { TemporaryFiles.release(temporary) }
        do {
            try place(temporary, at: url, replacing: replacing)
        } catch {
            unlink(temporary.path)
            throw error
        }
        syncFolder(url.deletingLastPathComponent().path)
    }

    /// Flushes a folder's entries (the renames into it) to disk, so a crash after a write keeps the new names; best
    /// effort: the files are already whole under them.
    private static func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// A hidden temporary file beside `url` that `body` writes, flushed to disk and closed; removed if anything throws.
    private static func writeTemporary(beside url: URL, _ body: (Int32) throws -> Void) throws -> URL {
        try checkFolder(of: url)
        let temporary = FilePlacement.temporaryURL(beside: url, tag: "partial")
        TemporaryFiles.register(temporary)
        let descriptor = open(temporary.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            TemporaryFiles.release(temporary)
            throw FileAccessError(.write, path: url.path, errno: code)
        }
        var closed = false
        do {
            try body(descriptor)
            guard fsync(descriptor) == 0 else { throw FileAccessError(.write, path: url.path, errno: errno) }
            closed = true
            guard close(descriptor) == 0 else { throw FileAccessError(.write, path: url.path, errno: errno) }
            return temporary
        } catch {
            if !closed { close(descriptor) }
            unlink(temporary.path)
            TemporaryFiles.release(temporary)
            throw error
        }
    }

    /// Writes `bytes` in pieces of 1 MB, each started back to disk as it is written, so the flush after waits for
    /// the last piece rather than the whole file.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + offset, min(1 << 20, bytes.count - offset))
            if n < 0 {
                if errno == EINTR { continue }
                throw FileAccessError(.write, path: path, errno: errno)
            }
            FilePlacement.startWriteback(descriptor, offset: offset, count: n)
            offset += n
        }
    }

    /// Whether anything is at `url`'s path — a symbolic link included, even one that points nowhere (a final link is not
    /// followed): the names a write without replacing keeps.
    public static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Whether `a` and `b` are one file: the same device and inode when both exist (hard links included), else the
    /// same canonical path. How the tools refuse to write over one of their inputs.
    public static func isSameFile(_ a: URL, _ b: URL) -> Bool {
        var sa = stat(), sb = stat()
        if stat(a.path, &sa) == 0, stat(b.path, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return canonicalPath(a) == canonicalPath(b)
    }

    /// The path of `url` with symbolic links resolved and "." and ".." removed: two URLs that name the same file
    /// through links or dots give the same path.
    public static func canonicalPath(_ url: URL) -> String {
        // "." and ".." first, and links through the folder when the file does not exist yet: Foundation resolves no
        // link in a path that names anything missing.
        let standardized = url.standardizedFileURL
        if FileManager.default.fileExists(atPath: standardized.path) { return standardized.resolvingSymlinksInPath().path }
        return standardized.deletingLastPathComponent().resolvingSymlinksInPath()
            .appendingPathComponent(standardized.lastPathComponent).path
    }

    /// Checks, before any work, that `url` can be written: its folder exists and is a folder, `url` itself is not a
    /// folder, and a file can be created in the folder — tried, with a hidden file made and removed at once, since
    /// permissions do not tell (root may write anywhere by them, yet no file can be made in /proc). With
    /// `creatingFolder`, a missing folder passes if `makeFolder` could make it: its nearest existing ancestor is a
    /// folder a file can be created in; nothing is created. Throws a `FileAccessError` with a plain reason, naming `url`
    /// (or, for a folder that could not be made, the folder).
    public static func checkDestination(_ url: URL, creatingFolder: Bool = false) throws {
        let folder = url.deletingLastPathComponent()
        if creatingFolder, !FileManager.default.fileExists(atPath: folder.path) {
            let ancestor = try existingAncestor(of: folder)
            return try probeCreation(in: ancestor, operation: .createFolder, path: folder.path)
        }
        if creatingFolder { try refuseFileInTheWay(folder) }
        try checkFolder(of: url)
        try probeCreation(in: folder, operation: .write, path: url.path)
    }

    /// `checkDestination` without the creation probe (for a writer about to create its file anyway).
    private static func checkFolder(of url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw FileAccessError(.write, path: url.path, reason: "the folder \(folder.path) does not exist")
        }
        guard isFolder.boolValue else {
            throw FileAccessError(.write, path: url.path, reason: "\(folder.path) is a file, not a folder")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw FileAccessError(.write, path: url.path, reason: "it is a folder")
        }
        guard access(folder.path, W_OK) == 0 else {
            throw FileAccessError(.write, path: url.path, errno: errno)
        }
    }

    /// Creates `folder` (and its parents) if missing; throws a plain `FileAccessError` when a file is
    /// in the way or the folder cannot be made.
    public static func makeFolder(_ folder: URL) throws {
        if FileManager.default.fileExists(atPath: folder.path) { return try refuseFileInTheWay(folder) }
        _ = try existingAncestor(of: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileAccessError(.createFolder, path: folder.path, error: error)
        }
    }

    /// Throws when `folder` exists and is not a folder: a file with that name is in the way.
    private static func refuseFileInTheWay(_ folder: URL) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw FileAccessError(.createFolder, path: folder.path, reason: "a file with that name is in the way")
        }
    }

    /// The nearest folder above a missing `folder` that exists, which making `folder` would create it in; throws when
    /// that is a file (a file where a parent folder should be is the usual mistake: name it).
    private static func existingAncestor(of folder: URL) throws -> URL {
        var ancestor = folder.deletingLastPathComponent()
        while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) {
            ancestor = ancestor.deletingLastPathComponent()
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw FileAccessError(.createFolder, path: folder.path, reason: "\(ancestor.path) is a file, not a folder")
        }
        return ancestor
    }

    /// Makes a hidden file in `folder` and removes it at once; throws `operation` on `path` when it cannot be made.
    private static func probeCreation(in folder: URL, operation: FileAccessError.Operation, path: String) throws {
        let probe = FilePlacement.temporaryURL(beside: folder.appendingPathComponent("opencapture"), tag: "probe")
        TemporaryFiles.register(probe)
        defer { TemporaryFiles.release(probe) }
        let descriptor = open(probe.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FileAccessError(operation, path: path,
                                  reason: "no file can be created in \(folder.path) (\(FileAccessError.reason(errno: errno)))")
        }
        close(descriptor)
        unlink(probe.path)
    }

    /// Reads a whole file, mapping Foundation's errors to a plain `FileAccessError`.
    public static func read(_ url: URL) throws -> Data {
        try checkReadable(url)
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw FileAccessError(.read, path: url.path, error: error)
        }
    }

    /// Reads a whole file into an array with one copy (from the page cache, by the kernel), for readers that keep
    /// their bytes in an array: a 24 MB raw file read through `Data` and converted is copied twice.
    public static func readBytes(_ url: URL) throws -> [UInt8] {
        try checkReadable(url)
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileAccessError(.read, path: url.path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileAccessError(.read, path: url.path, errno: errno) }
        let size = Int(status.st_size)
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            if size > 0 { LargeAllocation.adviseHugePages(UnsafeMutableRawPointer(buffer.baseAddress!), bytes: size) }
            while initialized < size {
                let n = Foundation.read(descriptor, buffer.baseAddress! + initialized, size - initialized)
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }   // an error, or the file shrank while it was read: what was read is the file
                initialized += n
            }
        }
        if let failure { throw FileAccessError(.read, path: url.path, errno: failure) }
        return bytes
    }

    /// Throws a plain `FileAccessError` when `url` is missing, a folder or not a regular file.
    private static func checkReadable(_ url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FileAccessError(.read, path: url.path, reason: "no such file")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw FileAccessError(.read, path: url.path, reason: "it is a folder")
        }
        // A device or pipe (/dev/zero, a FIFO) is not an image file: reading it might never end.
        var status = stat()
        if stat(url.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            throw FileAccessError(.read, path: url.path, reason: "not a regular file")
        }
    }
}
