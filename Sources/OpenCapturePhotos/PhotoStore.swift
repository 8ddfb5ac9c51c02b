import COpenSSL
import CaptureCore
import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// The library on disk: `Photos.sqlite` (assets and their resources, through GRDB, with migrations)
/// and `originals/`, a content-addressed store (`originals/ab/abcdef….jpg`, named by the SHA-256 of
/// the bytes, so a file added twice is stored once).
///
/// A change is all there or not at all: its files are written to temporary names in the store,
/// fsynced and renamed, the folder is fsynced, and only then does the database transaction that
/// references them commit. Opening the library removes what an interrupted change left behind:
/// temporary files, and stored files (named as the store names them) no row references.
///
/// Processes share a library: a change and the recovery hold an exclusive `flock` on `Photos.lock`, so one process's
/// recovery never takes the files of another's change before it commits, and SQLite waits up to 30 s for a busy
/// database instead of failing.
final class PhotoStore: Sendable {
    let root: URL
    let originals: URL
    private let database: DatabaseQueue
    /// What opening found and removed (temporary files, unreferenced files, assets whose files vanished).
    let recovered: (temporaryFiles: Int, unreferencedFiles: Int, assetsWithMissingFiles: Int)

    /// Opens the library at `root`; with `creating`, makes it when there is none (else a folder without
    /// `Photos.sqlite` is refused, and nothing is written there).
    init(root: URL, creating: Bool) throws {
        self.root = root
        originals = root.appendingPathComponent("originals", isDirectory: true)
        let path = root.appendingPathComponent("Photos.sqlite").path
        guard creating || FileManager.default.fileExists(atPath: path) else {
            throw PHPhotosError(.accessRestricted, "there is no photo library at \(root.path) (no Photos.sqlite)")
        }
        func failure(_ error: any Error) -> PHPhotosError {
            PHPhotosError(.accessRestricted, "cannot open the photo library at \(root.path): \(PhotoStore.describe(error))")
        }
        do {
            try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        } catch {
            throw failure(error)
        }
        // Made, migrated and recovered under the lock: two processes opening a new library at once make it once.
        let originals = originals
        (database, recovered) = try PhotoStore.whileLocked(root) {
            let database: DatabaseQueue
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(30)
                database = try DatabaseQueue(path: path, configuration: configuration)
                try PhotoStore.migrator.migrate(database)
            } catch {
                throw failure(error)
            }
            return (database, try PhotoStore.recover(database: database, originals: originals))
        }
    }

    /// An error in one line (SQLite's include the statement; Foundation's their user info).
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")" }
        let ns = error as NSError
        return ns.domain == NSCocoaErrorDomain ? ns.localizedDescription : "\(error)"
    }

    /// Runs `body` holding the library's exclusive lock (`flock` on `Photos.lock`), waiting for another process's.
    static func whileLocked<T>(_ root: URL, _ body: () throws -> T) throws -> T {
        func failure() -> PHPhotosError {
            PHPhotosError(.accessRestricted, "cannot lock the photo library at \(root.path): \(SystemErrorReason.text(errno: errno))")
        }
        let fd = open(root.appendingPathComponent("Photos.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure() }
        }
        return try body()
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: assets and resources") { db in
            try db.create(table: "asset") { t in
                t.primaryKey("id", .text)
                t.column("sequence", .integer).notNull().unique()
                t.column("mediaType", .integer).notNull()
                t.column("mediaSubtypes", .integer).notNull()
                t.column("pixelWidth", .integer).notNull()
                t.column("pixelHeight", .integer).notNull()
                t.column("creationDate", .double)
                t.column("modificationDate", .double).notNull()
                t.column("latitude", .double)
                t.column("longitude", .double)
                t.column("altitude", .double)
                t.column("isFavorite", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: "asset_creationDate", on: "asset", columns: ["creationDate"])
            try db.create(table: "resource") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("assetID", .text).notNull().indexed().references("asset", onDelete: .cascade)
                t.column("type", .integer).notNull()
                t.column("originalFilename", .text).notNull()
                t.column("uniformTypeIdentifier", .text).notNull()
                t.column("digest", .text).notNull().indexed()
                t.column("fileExtension", .text).notNull()
                t.column("byteCount", .integer).notNull()
            }
        }
        return migrator
    }

    // MARK: Reading

    func assets(mediaType: PHAssetMediaType?, identifiers: [String]?, newestFirst: Bool?) throws -> [PHAsset] {
        try database.read { db in
            var clauses: [String] = [], arguments: [any DatabaseValueConvertible] = []
            if let mediaType { clauses.append("mediaType = ?"); arguments.append(mediaType.rawValue) }
            if let identifiers {
                clauses.append("id IN (\(identifiers.map { _ in "?" }.joined(separator: ",")))")
                arguments.append(contentsOf: identifiers)
            }
            let order = newestFirst.map { "ORDER BY creationDate IS NULL, creationDate \($0 ? "DESC" : "ASC"), sequence" } ?? "ORDER BY sequence"
            let sql = "SELECT * FROM asset" + (clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")) + " " + order
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { self.asset(from: $0) }
        }
    }

    func asset(from row: Row) -> PHAsset {
        let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
        let created: Double? = row["creationDate"], modified: Double = row["modificationDate"]
        // The library keeps the place, not its fix time: the location is dated when the asset was taken.
        let location = latitude.flatMap { lat in longitude.map { lon in
            CLLocation(coordinate: CLLocationCoordinate2D(latitude: lat, longitude: lon), altitude: row["altitude"] ?? 0,
                       timestamp: created.map(Date.init(timeIntervalSince1970:)) ?? Date())
        } }
        return PHAsset(store: self, localIdentifier: row["id"], mediaType: PHAssetMediaType(rawValue: row["mediaType"]) ?? .unknown,
                       mediaSubtypes: PHAssetMediaSubtype(rawValue: UInt(row["mediaSubtypes"] as Int64)),
                       pixelWidth: row["pixelWidth"], pixelHeight: row["pixelHeight"],
                       creationDate: created.map(Date.init(timeIntervalSince1970:)),
                       modificationDate: Date(timeIntervalSince1970: modified), location: location, isFavorite: row["isFavorite"])
    }

    func resources(of assetID: String) throws -> [PHAssetResource] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM resource WHERE assetID = ? ORDER BY id", arguments: [assetID]).map { row in
                PHAssetResource(store: self, assetLocalIdentifier: row["assetID"],
                                type: PHAssetResourceType(rawValue: row["type"]) ?? .photo,
                                originalFilename: row["originalFilename"], uniformTypeIdentifier: row["uniformTypeIdentifier"],
                                storedName: PhotoStore.storedName(digest: row["digest"], fileExtension: row["fileExtension"]),
                                byteCount: row["byteCount"])
            }
        }
    }

    func url(of resource: PHAssetResource) -> URL { originals.appendingPathComponent(resource.storedName) }

    static func storedName(digest: String, fileExtension: String) -> String {
        "\(digest.prefix(2))/\(digest)" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
    }

    // MARK: Writing

    /// Saves prepared assets as one change (see the type's discussion), holding the library's lock.
    func save(_ assets: [PreparedAsset]) throws {
        try PhotoStore.whileLocked(root) { try saveLocked(assets) }
    }

    private func saveLocked(_ assets: [PreparedAsset]) throws {
        var created: [URL] = []
        do {
            for asset in assets {
                for resource in asset.resources {
                    if let url = try store(resource) { created.append(url) }
                }
            }
            try PhotoStore.synchronizeDirectory(originals)
            if ProcessInfo.processInfo.environment["OPENCAPTURE_PHOTOS_FAULT"] == "after-store-write" {
                kill(getpid(), SIGKILL)   // test hook: die between the files and the transaction
            }
            try database.write { db in
                var sequence = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) FROM asset") ?? 0
                for asset in assets {
                    sequence += 1
                    try db.execute(sql: """
                        INSERT INTO asset (id, sequence, mediaType, mediaSubtypes, pixelWidth, pixelHeight, creationDate,
                                           modificationDate, latitude, longitude, altitude, isFavorite)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [asset.id, sequence, asset.mediaType.rawValue, Int64(asset.mediaSubtypes.rawValue),
                                         asset.pixelWidth, asset.pixelHeight, asset.creationDate?.timeIntervalSince1970,
                                         Date().timeIntervalSince1970, asset.location?.coordinate.latitude,
                                         asset.location?.coordinate.longitude, asset.location?.altitude, asset.isFavorite])
                    for r in asset.resources {
                        try db.execute(sql: """
                            INSERT INTO resource (assetID, type, originalFilename, uniformTypeIdentifier, digest, fileExtension, byteCount)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, arguments: [asset.id, r.type.rawValue, r.originalFilename, r.uniformTypeIdentifier,
                                             r.digest, r.fileExtension, r.data.count])
                    }
                }
            }
        } catch {
            // Nothing references the files this change added: take them back.
            for url in created { try? FileManager.default.removeItem(at: url) }
            if let error = error as? PHPhotosError { throw error }
            throw PHPhotosError(.operationInterrupted, "the change could not be saved: \(PhotoStore.describe(error))")
        }
    }

    /// Writes one resource's bytes under its digest (temporary name, fsync, rename); nil when the
    /// store already holds them.
    private func store(_ resource: PreparedResource) throws -> URL? {
        let destination = originals.appendingPathComponent(PhotoStore.storedName(digest: resource.digest, fileExtension: resource.fileExtension))
        if FileManager.default.fileExists(atPath: destination.path) { return nil }
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let temporary = originals.appendingPathComponent(".tmp-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw PHPhotosError(.notEnoughSpace, "cannot create a file in \(originals.path)")
            }
            do {
                let handle = try FileHandle(forWritingTo: temporary)
                defer { try? handle.close() }
                try handle.write(contentsOf: resource.data)
                try handle.synchronize()
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw PHPhotosError(.notEnoughSpace, "cannot write \(resource.originalFilename): \(PhotoStore.describe(error))")
            }
            guard rename(temporary.path, destination.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                throw PHPhotosError(.operationInterrupted, "cannot move \(resource.originalFilename) into the store (errno \(errno))")
            }
            try PhotoStore.synchronizeDirectory(folder)
            return destination
        } catch let error as PHPhotosError {
            throw error
        } catch {
            let ns = error as NSError
            let full = ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError
            throw PHPhotosError(full ? .notEnoughSpace : .accessRestricted,
                                "cannot store \(resource.originalFilename): \(PhotoStore.describe(error))")
        }
    }

    static func synchronizeDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw PHPhotosError(.operationInterrupted, "cannot open \(url.path) to sync it") }
        defer { close(fd) }
        _ = fsync(fd)
    }

    // MARK: Recovery

    private static func recover(database: DatabaseQueue, originals: URL) throws
        -> (temporaryFiles: Int, unreferencedFiles: Int, assetsWithMissingFiles: Int) {
        let fm = FileManager.default
        var temporary = 0, unreferenced = 0, broken = 0
        let referenced = try database.read { db in
            try Row.fetchAll(db, sql: "SELECT assetID, digest, fileExtension FROM resource").map {
                (asset: $0["assetID"] as String, name: storedName(digest: $0["digest"], fileExtension: $0["fileExtension"]))
            }
        }
        let names = Set(referenced.map(\.name))
        // Only what the store itself names: `.tmp-<UUID>` and `ab/abcdef…[.ext]` (64 hex digits), so files someone
        // else put there are never touched.
        let hex = Set("0123456789abcdef")
        func isStoredName(_ file: String, in folder: String) -> Bool {
            let digest = file.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
            return digest.count == 64 && digest.allSatisfy(hex.contains) && digest.hasPrefix(folder)
        }
        for entry in (try? fm.contentsOfDirectory(atPath: originals.path)) ?? [] {
            let url = originals.appendingPathComponent(entry)
            if entry.hasPrefix(".tmp-"), UUID(uuidString: String(entry.dropFirst(5))) != nil {
                try? fm.removeItem(at: url); temporary += 1
                continue
            }
            var isDirectory: ObjCBool = false
            guard entry.count == 2, entry.allSatisfy(hex.contains),
                  fm.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            for file in (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
            where isStoredName(file, in: entry) && !names.contains("\(entry)/\(file)") {
                try? fm.removeItem(at: url.appendingPathComponent(file)); unreferenced += 1
            }
        }
        // Files that vanished from under the library: their assets can no longer be read whole.
        let missing = Set(referenced.filter { !fm.fileExists(atPath: originals.appendingPathComponent($0.name).path) }.map(\.asset))
        if !missing.isEmpty {
            try database.write { db in
                for id in missing { try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id]) }
            }
            broken = missing.count
        }
        return (temporary, unreferenced, broken)
    }

    static func sha256(_ data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        data.withUnsafeBytes { bytes in
            _ = EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, EVP_sha256(), nil)
        }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
