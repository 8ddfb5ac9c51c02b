import CaptureCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Rendered sensor planes kept on disk between processes, so the first photo of a new process skips
/// the scene render (and the lens blur) that an earlier process already did, and the sensor's fixed-pattern noise.
///
/// Where: `$OPENCAPTURE_RENDER_CACHE` (a folder; `off` turns the cache off), else
/// `$XDG_CACHE_HOME/opencapture/renders`, else `~/.cache/opencapture/renders`. An entry is the photo-electron
/// rate, flash ratio and depth planes of one module, scene, readout size and focus (or the radiance view of a size,
/// metering's, or the fixed-pattern noise of a session seed and readout size), with its whole key written in the file
/// and compared on reading. The key includes the running executable's size and modification time, so a rebuilt binary
/// (a changed renderer or scene) never reads an older render. Files are written under a temporary name in the folder and renamed; a damaged or foreign file is a
/// miss (the next store replaces it); the folder is trimmed to `byteLimit`, least recently used first.
/// Failures only cost the render: the cache never throws. Entries are read in place (mapped): they are only ever
/// replaced by renaming a new file over them or removed, which leaves a mapping intact; a file truncated in place by
/// something else while a process reads it would fault that process (SIGBUS), as with any mapped file.
struct RenderCache: Sendable {
    let directory: URL

    /// Largest total size of the folder's entries (a 12 MP entry is ≈ 245 MB).
    static let byteLimit: Int64 = 3 << 30

    /// The cache the environment asks for (see the type's documentation), nil when it is off.
    static let shared: RenderCache? = fromEnvironment(ProcessInfo.processInfo.environment)

    static func fromEnvironment(_ environment: [String: String]) -> RenderCache? {
        if let setting = environment["OPENCAPTURE_RENDER_CACHE"] {
            if setting.isEmpty || setting == "off" || setting == "0" { return nil }
            return RenderCache(directory: URL(fileURLWithPath: setting, isDirectory: true))
        }
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache", isDirectory: true)
        } else {
            return nil
        }
        return RenderCache(directory: base.appendingPathComponent("opencapture/renders", isDirectory: true))
    }

    /// What identifies the running code: OpenCapture's version and the executable's size and modification time.
    static let buildIdentity: String = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
        return "\(OpenCaptureVersion.string) \(path) \(size) \(modified)"
    }()

    /// The planes' key: build, module, scene, readout size and focus (nil = all in focus).
    static func key(module: CameraModule, scene: SimulatedScene, size: Size, focusSteps: Int?) -> String {
        "\(buildIdentity)|\(module)|\(scene)|\(size.width)x\(size.height)|focus \(focusSteps.map(String.init) ?? "sharp")"
    }

    /// A radiance view's key (the same layout as planes: radiance × 3, flash luminance, depth): build, module, scene
    /// and size.
    static func viewKey(module: CameraModule, scene: SimulatedScene, size: Size) -> String {
        "\(buildIdentity)|\(module)|\(scene)|\(size.width)x\(size.height)|radiance view"
    }

    /// The fixed-pattern noise's key: build, the pattern's seed (from the session seed and the size) and readout size.
    static func patternKey(seed: UInt64, size: Size) -> String {
        "\(buildIdentity)|fixed pattern \(seed)|\(size.width)x\(size.height)"
    }

    /// The planes stored under `key` for a `width`×`height` readout, mapped from the file in place (no copy: a 12 MP
    /// entry's 240 MB copied out of the page cache was the largest serial step of a first photo), or nil.
    func load(key: String, width: Int, height: Int) -> (rate: PlaneStorage<Float>, flashRatio: PlaneStorage<Float>,
                                                        depth: PlaneStorage<Float>)? {
        let header = Self.header(key: key, width: width, height: height)
        let count = width * height, floatSize = MemoryLayout<Float>.size
        guard let file = mapped(fileURL(key), header: header, bytes: count * 5 * floatSize),
              let rate = PlaneStorage<Float>(file: file, byteOffset: header.bytes.count, count: 3 * count),
              let flash = PlaneStorage<Float>(file: file, byteOffset: header.bytes.count + 3 * count * floatSize, count: count),
              let depth = PlaneStorage<Float>(file: file, byteOffset: header.bytes.count + 4 * count * floatSize, count: count)
        else { return nil }
        return (rate, flash, depth)
    }

    /// The fixed-pattern noise of a `width`×`height` readout stored under `key` (two deviates per pixel), mapped in
    /// place, or nil.
    func loadPattern(key: String, width: Int, height: Int) -> PlaneStorage<Int8>? {
        let header = Self.header(key: key, width: width, height: height)
        guard let file = mapped(fileURL(key, kind: "pattern"), header: header, bytes: 2 * width * height) else { return nil }
        return PlaneStorage<Int8>(file: file, byteOffset: header.bytes.count, count: 2 * width * height)
    }

    /// The file at `url` mapped when it holds `header` (its checksum aside) followed by exactly `bytes` bytes whose
    /// checksum it matches (checked for entries up to `verifiedBytes`), and marked most recently used; else nil.
    private func mapped(_ url: URL, header: (bytes: [UInt8], checksumAt: Int), bytes: Int) -> MappedFile? {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        let at = header.checksumAt, size = header.bytes.count
        guard fstat(fd, &status) == 0, Int(status.st_size) == size + bytes,
              let file = MappedFile(fd: fd, count: Int(status.st_size)),
              UnsafeRawBufferPointer(start: file.base, count: at).elementsEqual(header.bytes[..<at]),
              UnsafeRawBufferPointer(start: file.base + at + 8, count: size - at - 8).elementsEqual(header.bytes[(at + 8)...])
        else { return nil }
        if bytes <= Self.verifiedBytes {
            let stored = file.base.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian
            guard stored == Self.checksum([UnsafeRawBufferPointer(start: file.base + size, count: bytes)]) else { return nil }
        }
        // Most recently used: the trimming keeps it.
        _ = utimes(url.path, nil)
        return file
    }

    /// Stores planes under `key` (temporary name, then rename), then trims the folder.
    func store(key: String, width: Int, height: Int, rate: PlaneStorage<Float>, flashRatio: PlaneStorage<Float>,
               depth: PlaneStorage<Float>) {
        let count = width * height
        guard rate.count == 3 * count, flashRatio.count == count, depth.count == count else { return }
        rate.withUnsafeBufferPointer { rate in
            flashRatio.withUnsafeBufferPointer { flashRatio in
                depth.withUnsafeBufferPointer { depth in
                    write(fileURL(key), header: Self.header(key: key, width: width, height: height),
                          [UnsafeRawBufferPointer(rate), UnsafeRawBufferPointer(flashRatio), UnsafeRawBufferPointer(depth)])
                }
            }
        }
    }

    /// Stores a `width`×`height` readout's fixed-pattern noise under `key`.
    func storePattern(key: String, width: Int, height: Int, _ pattern: PlaneStorage<Int8>) {
        guard pattern.count == 2 * width * height else { return }
        pattern.withUnsafeBufferPointer {
            write(fileURL(key, kind: "pattern"), header: Self.header(key: key, width: width, height: height), [UnsafeRawBufferPointer($0)])
        }
    }

    /// A few numbers stored under `key` (a result that took frames to find, such as auto focus), or nil.
    func loadValues(key: String, count: Int) -> [Double]? {
        let header = Self.header(key: key, width: count, height: 1)
        guard let file = mapped(fileURL(key, kind: "values"), header: header, bytes: count * 8) else { return nil }
        return (0..<count).map { i in
            Double(bitPattern: file.base.loadUnaligned(fromByteOffset: header.bytes.count + 8 * i, as: UInt64.self).littleEndian)
        }
    }

    /// Stores a few numbers under `key`.
    func storeValues(key: String, _ values: [Double]) {
        let bits = values.map { $0.bitPattern.littleEndian }
        bits.withUnsafeBytes { write(fileURL(key, kind: "values"), header: Self.header(key: key, width: values.count, height: 1), [$0]) }
    }

    /// Writes the header (with the pieces' checksum) and the pieces' bytes to a temporary name in the folder, renames
    /// it to `url`, then trims the folder.
    private func write(_ url: URL, header layout: (bytes: [UInt8], checksumAt: Int), _ pieces: [UnsafeRawBufferPointer]) {
        var header = layout.bytes
        withUnsafeBytes(of: Self.checksum(pieces).littleEndian) { header.replaceSubrange(layout.checksumAt..<(layout.checksumAt + 8), with: $0) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            return
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp")
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.release(temporary) }
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { return }
        var ok: Bool
        ok = header.withUnsafeBytes { writeFully(fd, $0) }
        for piece in pieces where ok { ok = writeFully(fd, piece) }
        ok = close(fd) == 0 && ok
        guard ok, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            return
        }
        trim()
    }

    /// Removes the least recently used entries (and stale temporary files) beyond `byteLimit`.
    func trim(limit: Int64 = RenderCache.byteLimit) {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) else { return }
        var entries: [(url: URL, size: Int64, modified: Date)] = []
        for file in files {
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { continue }
            let modified = values.contentModificationDate ?? .distantPast
            if file.lastPathComponent.hasSuffix(".tmp") {
                // Another process's write in progress, or one that died: gone after an hour.
                if modified.timeIntervalSinceNow < -3600 { discard(file) }
                continue
            }
            guard ["planes", "pattern", "values"].contains(file.pathExtension) else { continue }
            entries.append((file, Int64(values.fileSize ?? 0), modified))
        }
        var total = entries.reduce(Int64(0)) { $0 + $1.size }
        for entry in entries.sorted(by: { $0.modified < $1.modified }) where total > limit {
            discard(entry.url)
            total -= entry.size
        }
    }

    // MARK: Internals

    func fileURL(_ key: String, kind: String = "planes") -> URL {
        // FNV-1a of the key names the file; the key itself is in the header.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return directory.appendingPathComponent(String(hash, radix: 16) + "." + kind)
    }

    /// Magic, the key's length and bytes, width, height and the payload's checksum (little-endian 64-bit; zero here, at
    /// `checksumAt`), zero-padded to a multiple of 64 bytes so the planes after it are aligned where the file is mapped.
    static func header(key: String, width: Int, height: Int) -> (bytes: [UInt8], checksumAt: Int) {
        var bytes = Array("OCPLANE2".utf8)
        func append(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        let keyBytes = Array(key.utf8)
        append(UInt64(keyBytes.count))
        bytes.append(contentsOf: keyBytes)
        append(UInt64(width))
        append(UInt64(height))
        let checksumAt = bytes.count
        append(0)
        bytes.append(contentsOf: repeatElement(0, count: (64 - bytes.count % 64) % 64))
        return (bytes, checksumAt)
    }

    /// Entries whose payload is at most this large are checked against their checksum when read (metering's view, auto
    /// focus's values, small readouts); a full-resolution entry (≈ 245 MB) would cost a first photo ~30 ms to check,
    /// so its header, key and size are checked, not its every byte.
    static let verifiedBytes = 8 << 20

    /// A 64-bit checksum of the pieces' bytes one after another (8 bytes at a time; the same for any split into pieces).
    static func checksum(_ pieces: [UnsafeRawBufferPointer]) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15, carry: UInt64 = 0, carried = 0, total = 0
        @inline(__always) func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
        }
        for piece in pieces {
            guard let base = piece.baseAddress else { continue }
            total += piece.count
            var i = 0
            // Bytes left over from the pieces before complete a word first.
            while carried > 0, i < piece.count {
                carry |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(carried))
                carried += 1
                i += 1
                if carried == 8 { mix(carry); carry = 0; carried = 0 }
            }
            while i + 8 <= piece.count {
                mix(base.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian)
                i += 8
            }
            while i < piece.count {
                carry |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << (8 * UInt64(carried))
                carried += 1
                i += 1
            }
        }
        mix(carry ^ UInt64(total) << 8)
        return hash
    }

    private func discard(_ url: URL) { unlink(url.path) }

    private func writeFully(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var done = 0
        while done < buffer.count {
            let n = Glibc.write(fd, base + done, buffer.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}
