import Foundation
import OpenCapture

/// The studio's own index of captures (which assets a shutter press made, and its timeline), kept
/// beside the photo library as `studio-captures.json` (a JSON array of `StudioCaptureRecord`s), written
/// with `AtomicFile`. A log that cannot be read is never overwritten: `load()` sets it aside and keeps
/// what of it can be read.
final class StudioCaptureLog: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `records`, the only mutable field.
    private let lock = NSLock()
    private var records: [StudioCaptureRecord] = []
    let url: URL

    init(folder: URL) {
        url = folder.appendingPathComponent("studio-captures.json")
    }

    var all: [StudioCaptureRecord] { lock.withLock { records } }

    /// Reads the log (the studio does before it serves); returns a line for the server's log when the file was
    /// damaged, nil when it was fine or is not there yet. A damaged file is renamed
    /// `studio-captures.json.damaged-<UTC date and time>` and every record that can still be read from it (a cut
    /// file's complete ones) is kept and written back. Throws `StudioStartError` when the file cannot be read or set
    /// aside: the studio would otherwise write over it.
    func load() throws -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StudioStartError(description: "cannot read the studio's capture log \(url.path): \(error.localizedDescription)")
        }
        if let read = try? Self.decoder.decode([StudioCaptureRecord].self, from: data) {
            lock.withLock { records = read }
            return nil
        }
        let recovered = Self.recover(data)
        let aside = try setAside()
        lock.withLock { records = recovered }
        if !recovered.isEmpty { try write(recovered) }
        let reason = (try? JSONSerialization.jsonObject(with: data)) == nil ? "it is not complete JSON" : "its records are not captures"
        return "the capture log \(url.path) could not be read (\(reason), \(data.count) bytes): kept as \(aside.lastPathComponent); "
            + "\(recovered.count) capture\(recovered.count == 1 ? "" : "s") recovered from it"
    }

    func append(_ record: StudioCaptureRecord) throws {
        try write(lock.withLock { records.append(record); return records })
    }

    private func write(_ snapshot: [StudioCaptureRecord]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            try AtomicFile.write(try encoder.encode(snapshot), to: url)
        } catch {
            throw StudioError(status: 500, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Renames the damaged log beside itself, never over another file; the new name.
    private func setAside() throws -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let stamp = formatter.string(from: Date())
        var failure = ""
        for attempt in 0..<100 {
            let aside = URL(fileURLWithPath: url.path + ".damaged-" + stamp + (attempt == 0 ? "" : "-\(attempt)"))
            if FileManager.default.fileExists(atPath: aside.path) { continue }
            do {
                try FileManager.default.moveItem(at: url, to: aside)
                return aside
            } catch {
                failure = error.localizedDescription
                break
            }
        }
        throw StudioStartError(description: "the capture log \(url.path) is damaged and cannot be set aside (\(failure)); "
            + "move it away to start the studio")
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    /// The records of a damaged log that still decode: each element of its top-level array, found by matching
    /// brackets outside strings, decoded on its own (a cut file's last, incomplete element is left out).
    static func recover(_ data: Data) -> [StudioCaptureRecord] {
        let bytes = [UInt8](data)
        guard let open = bytes.firstIndex(where: { !" \t\r\n".utf8.contains($0) }), bytes[open] == UInt8(ascii: "[") else { return [] }
        var elements: [Range<Int>] = [], depth = 0, start = 0, inString = false, escaped = false
        for i in (open + 1)..<bytes.count {
            let byte = bytes[i]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if depth == 0 { start = i }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { elements.append(start..<(i + 1)) }
                if depth < 0 { return elements.compactMap { try? decoder.decode(StudioCaptureRecord.self, from: Data(bytes[$0])) } }
            default: break
            }
        }
        return elements.compactMap { try? decoder.decode(StudioCaptureRecord.self, from: Data(bytes[$0])) }
    }
}
