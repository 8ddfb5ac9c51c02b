import Foundation

/// The studio's own index of captures (which assets a shutter press made, and its timeline), kept
/// beside the photo library as `studio-captures.json`, written through a temporary file and a rename.
final class StudioCaptureLog: @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `records`, the only mutable field.
    private let lock = NSLock()
    private var records: [StudioCaptureRecord]
    let url: URL

    init(folder: URL) {
        url = folder.appendingPathComponent("studio-captures.json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        records = (try? Data(contentsOf: url)).flatMap { try? decoder.decode([StudioCaptureRecord].self, from: $0) } ?? []
    }

    var all: [StudioCaptureRecord] { lock.withLock { records } }

    func append(_ record: StudioCaptureRecord) throws {
        let snapshot = lock.withLock { records.append(record); return records }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(snapshot)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".studio-captures.\(UUID().uuidString).tmp")
        try data.write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw StudioError(status: 500, "cannot write \(url.path) (errno \(errno))")
        }
    }
}
