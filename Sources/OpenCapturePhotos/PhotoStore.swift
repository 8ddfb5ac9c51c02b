import COpenSSL
import CaptureCore
import Foundation
import GRDB
import MediaFormats
#if canImport(Glibc)
import Glibc
#endif

/// The library on disk: `Photos.sqlite` (assets and their resources, through GRDB, with migrations)
/// and `originals/`, a content-addressed store (`originals/ab/abcdef….jpg`, named by the SHA-256 of
/// the bytes, so a file added twice is stored once).
///
/// A change is all there or not at all: each file it adds is written to a temporary name in the store, fsynced and
/// renamed to its staged name (`originals/.staging/<digest>.<ext>`), the folder is fsynced, and only then does the
/// database transaction that references the files commit; then the files take their stored names. Opening the library
/// finishes or undoes only what an interrupted change left behind: temporary files go, a staged file some row
/// references takes its stored name (the change committed, or a deletion did not), a staged file none references goes
/// (the change did not commit, or a deletion did). Deleting an asset moves its files (those no other asset shares) into
/// the staging folder inside its transaction, so recovery's same two rules finish or undo it.
/// Nothing else is ever removed: a stored file that has gone missing (deleted by hand, the folder moved away) leaves
/// its asset as it is, and reading it fails with `.missingResource` until it is back.
///
/// Processes share a library: a change and the recovery hold an exclusive `flock` on `Photos.lock`, so one process's
/// recovery never takes the files of another's change before it commits, and SQLite waits up to 30 s for a busy
/// database instead of failing.
final class PhotoStore: Sendable {
    let root: URL
    let originals: URL
    /// Where a change's files wait for its transaction (`originals/.staging`).
    let staging: URL
    private let database: DatabaseQueue
    /// What opening did about interrupted changes: temporary files removed, staged files no row references removed (the
    /// change did not commit), staged files given their stored names (it did).
    let recovered: (temporaryFiles: Int, interruptedFiles: Int, finishedFiles: Int)

    /// Opens the library at `root`; with `creating`, makes it when there is none (else a folder without
    /// `Photos.sqlite` is refused, and nothing is written there, and opening an existing library creates no folder).
    init(root: URL, creating: Bool) throws {
        self.root = root
        originals = root.appendingPathComponent("originals", isDirectory: true)
        staging = originals.appendingPathComponent(".staging", isDirectory: true)
        let path = root.appendingPathComponent("Photos.sqlite").path
        // An empty Photos.sqlite is no library either (SQLite would make a new database in it).
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        let isNew = size.map { $0.intValue == 0 } ?? true
        guard creating || !isNew else {
            throw PHPhotosError(.accessRestricted, "there is no photo library at \(root.path) "
                                + (size == nil ? "(no Photos.sqlite)" : "(its Photos.sqlite is empty)"))
        }
        func failure(_ error: any Error) -> PHPhotosError {
            PHPhotosError(.accessRestricted, "cannot open the photo library at \(root.path): \(PhotoStore.describe(error))")
        }
        if isNew {   // (an existing library's missing `originals/` is not made anew: see `prepareOriginalsFolder`)
            do {
                try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
            } catch {
                throw failure(error)
            }
        }
        // Made, migrated and recovered under the lock: two processes opening a new library at once make it once.
        let (originals, staging) = (originals, staging)
        (database, recovered) = try PhotoStore.whileLocked(root) {
            let database: DatabaseQueue
            do {
                var configuration = Configuration()
                configuration.busyMode = .timeout(30)
                database = try DatabaseQueue(path: path, configuration: configuration)
                try PhotoStore.migrator(originals: originals).migrate(database)
            } catch {
                throw failure(error)
            }
            return (database, try PhotoStore.recover(database: database, originals: originals, staging: staging))
        }
    }

    /// An error in one line (SQLite's include the statement; Foundation's their user info): a file error as the
    /// system's reason in words ("permission denied", "the disk is read-only").
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return "SQLite error \(error.resultCode.rawValue): \(error.message ?? "\(error.resultCode)")" }
        if let code = systemError(of: error) { return SystemErrorReason.text(errno: code) }
        let ns = error as NSError
        return ns.domain == NSCocoaErrorDomain ? ns.localizedDescription : "\(error)"
    }

    /// The POSIX error number of a Foundation file error (itself, or the one under it), if it carries one.
    static func systemError(of error: any Error) -> Int32? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        // (Held as a Swift error — POSIXError — as often as an NSError.)
        guard let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map({ $0 as NSError }),
              underlying.domain == NSPOSIXErrorDomain else { return nil }
        return Int32(underlying.code)
    }

    /// Whether a file error means the disk (or the user's quota) is full: `.notEnoughSpace`, and only then.
    static func isOutOfSpace(_ error: any Error) -> Bool {
        if let code = systemError(of: error) { return code == ENOSPC || code == EDQUOT }
        let ns = error as NSError
        return ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError
    }

    /// Runs `body` holding the library's exclusive lock (`flock` on `Photos.lock`), waiting for another process's.
    static func whileLocked<T>(_ root: URL, _ body: () throws -> T) throws -> T {
        func failure() -> PHPhotosError {
            PHPhotosError(.accessRestricted, "cannot lock the photo library at \(root.path): \(SystemErrorReason.text(errno: errno))")
        }
        let path = root.appendingPathComponent("Photos.lock").path
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }   // a read-only library: its lock file, read-only
        guard fd >= 0 else { throw failure() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw failure() }
        }
        return try body()
    }

    /// The schema's migrations, for a library whose stored files are in `originals`.
    static func migrator(originals: URL) -> DatabaseMigrator {
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
        migrator.registerMigration("v2: hidden assets") { db in
            try db.alter(table: "asset") { t in t.add(column: "isHidden", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v3: video durations, edits and deletions") { db in
            try db.alter(table: "asset") { t in t.add(column: "duration", .double).notNull().defaults(to: 0) }
            // What each saved change did to which asset, in commit order: how observers in any process learn of it.
            try db.create(table: "changeLog") { t in
                t.autoIncrementedPrimaryKey("sequence")
                t.column("assetID", .text).notNull()
                t.column("kind", .integer).notNull()
            }
        }
        migrator.registerMigration("v4: earlier videos' sizes and durations") { db in
            // Videos saved before v3 read 0×0 and 0 s: read their movie headers once.
            for (id, movie, track) in try videoMovies(db, originals: originals, where: "asset.pixelWidth = 0") {
                try db.execute(sql: "UPDATE asset SET pixelWidth = ?, pixelHeight = ?, duration = ? WHERE id = ?",
                               arguments: [track.width, track.height, movie.duration, id])
            }
        }
        migrator.registerMigration("v5: turned videos' sizes as shown") { db in
            // Videos were sized as stored, before their track's matrix turns them: an upright phone's movie read 1920×1080
            // where Photos says 1080×1920.
            for (id, _, track) in try videoMovies(db, originals: originals) where track.displayMatrix.swapsSides {
                try db.execute(sql: "UPDATE asset SET pixelWidth = ?, pixelHeight = ? WHERE id = ?",
                               arguments: [track.displayWidth, track.displayHeight, id])
            }
        }
        migrator.registerMigration("v6: photos' sizes as shown") { db in
            // Photos were sized as stored, before their orientation turns them (an upright phone's photo read 4032×3024
            // where Photos says 3024×4032), and a RAW-only DNG as its preview: size them as a new photo is, once.
            for (id, file) in try storedFiles(db, originals: originals, mediaType: .image, resource: .photo) {
                guard let data = try? Data(contentsOf: file, options: .alwaysMapped),
                      let size = try? PreparedAsset.pixelSize(of: data, label: id) else { continue }
                try db.execute(sql: "UPDATE asset SET pixelWidth = ?, pixelHeight = ? WHERE id = ?", arguments: [size.width, size.height, id])
            }
        }
        return migrator
    }

    /// The video assets (those matching `condition` too, an SQL expression over `asset`) with their movie headers and
    /// first video tracks, read from their stored files for a migration; one whose file is missing or unreadable is left
    /// out, so its asset stays as it was.
    private static func videoMovies(_ db: Database, originals: URL, where condition: String = "1")
        throws -> [(id: String, movie: QuickTimeMovie, track: QuickTimeMovie.Track)] {
        try storedFiles(db, originals: originals, mediaType: .video, resource: .video, where: condition).compactMap { id, file in
            guard let data = try? Data(contentsOf: file, options: .alwaysMapped), let movie = try? QuickTimeMovie.parse(data),
                  let track = movie.videoTrack else { return nil }
            return (id, movie, track)
        }
    }

    /// Where the stored `resource` file of each asset of `mediaType` matching `condition` is, for a migration to read
    /// (one at a time: a missing or unreadable file leaves its asset as it was).
    private static func storedFiles(_ db: Database, originals: URL, mediaType: PHAssetMediaType, resource: PHAssetResourceType,
                                    where condition: String = "1") throws -> [(id: String, file: URL)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT asset.id, resource.digest, resource.fileExtension FROM asset JOIN resource ON resource.assetID = asset.id
            WHERE asset.mediaType = ? AND resource.type = ? AND (\(condition))
            """, arguments: [mediaType.rawValue, resource.rawValue])
        return rows.map { row in
            (row["id"], originals.appendingPathComponent(storedName(digest: row["digest"], fileExtension: row["fileExtension"])))
        }
    }

    // MARK: Reading

    func assets(mediaType: PHAssetMediaType?, identifiers: [String]?, includingHidden: Bool, newestFirst: Bool?) throws -> [PHAsset] {
        try database.read { db in
            var clauses: [String] = includingHidden ? [] : ["NOT isHidden"], arguments: [any DatabaseValueConvertible] = []
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

    /// What a saved change did to an asset, as the change log records it.
    enum ChangeKind: Int {
        case inserted = 0, changed = 1, removed = 2
    }

    /// The identifiers of the assets some changes inserted, changed and removed (each in the order the changes did it).
    struct ChangedAssets: Equatable {
        var inserted: [String] = []
        var changed: [String] = []
        var removed: [String] = []
        var isEmpty: Bool { inserted.isEmpty && changed.isEmpty && removed.isEmpty }

        /// Adds what a change did to `id`; false when that is no news (an edit of an asset already inserted or changed
        /// here). A removal cancels the asset's insertion and changes.
        @discardableResult
        mutating func record(_ id: String, _ kind: ChangeKind) -> Bool {
            switch kind {
            case .inserted: inserted.append(id)
            case .changed:
                guard !inserted.contains(id), !changed.contains(id) else { return false }
                changed.append(id)
            case .removed:
                inserted.removeAll { $0 == id }
                changed.removeAll { $0 == id }
                removed.append(id)
            }
            return true
        }
    }

    /// The sequence number of the newest change-log entry (0 when there is none): entries are numbered in the order
    /// their changes committed, whichever process saved them.
    func newestChange() throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) FROM changeLog") ?? 0 }
    }

    /// What the changes logged after `sequence` did, and the newest entry's number. An asset inserted and then removed
    /// is only removed; one inserted and changed is only inserted.
    func changes(after sequence: Int) throws -> (assets: ChangedAssets, newest: Int) {
        try database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT sequence, assetID, kind FROM changeLog WHERE sequence > ? ORDER BY sequence",
                                        arguments: [sequence])
            var result = ChangedAssets()
            for row in rows {
                if let kind = ChangeKind(rawValue: row["kind"]) { result.record(row["assetID"], kind) }
            }
            return (result, rows.last?["sequence"] ?? sequence)
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
                       pixelWidth: row["pixelWidth"], pixelHeight: row["pixelHeight"], duration: row["duration"],
                       creationDate: created.map(Date.init(timeIntervalSince1970:)),
                       modificationDate: Date(timeIntervalSince1970: modified), location: location, isFavorite: row["isFavorite"],
                       isHidden: row["isHidden"])
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

    /// Whether the library (still) holds the asset with this identifier, hidden or not.
    func holdsAsset(_ id: String) throws -> Bool {
        try database.read { db in try PhotoStore.holdsAsset(id, in: db) }
    }

    static func holdsAsset(_ id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM asset WHERE id = ?)", arguments: [id]) ?? false
    }

    /// Whether some resource row references the stored file of these bytes.
    static func isReferenced(digest: String, fileExtension: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM resource WHERE digest = ? AND fileExtension = ?)",
                          arguments: [digest, fileExtension]) ?? false
    }

    /// Whether some asset (hidden ones too) holds these bytes as its photo or video (one indexed look-up of the digest).
    func holdsMainResource(_ data: Data) throws -> Bool {
        try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM resource WHERE digest = ? AND type IN (?, ?))",
                              arguments: [PhotoStore.sha256(data), PHAssetResourceType.photo.rawValue,
                                          PHAssetResourceType.video.rawValue]) ?? false
        }
    }

    /// Where the resource's bytes are now: its stored name, else (another process's change committed a moment ago and
    /// has not renamed it yet, or was killed before it could) its staged name; nil when neither is there.
    func existingURL(of resource: PHAssetResource) -> URL? {
        let stored = url(of: resource)
        if FileManager.default.fileExists(atPath: stored.path) { return stored }
        let staged = staging.appendingPathComponent(stored.lastPathComponent)
        return FileManager.default.fileExists(atPath: staged.path) ? staged : nil
    }

    static func storedName(digest: String, fileExtension: String) -> String {
        "\(digest.prefix(2))/\(digest)" + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
    }

    // MARK: Writing

    /// What an editing request sets (nil: left as it is; a creation date or location of `.some(nil)` is removed).
    struct AssetEdit {
        let id: String
        var creationDate: Date?? = nil
        var location: CLLocation?? = nil
        var isFavorite: Bool? = nil
        var isHidden: Bool? = nil
    }

    /// Saves one change — new assets, edits, deletions — all or nothing (see the type's discussion), holding the
    /// library's lock; returns what it did. A deleted asset's stored files go with it unless another asset holds the
    /// same bytes: inside the transaction they move to `originals/.staging/` (where recovery puts back a file some row
    /// still references and removes one none does), and are removed once it has committed.
    @discardableResult
    func save(_ assets: [PreparedAsset], edits: [AssetEdit] = [], deletions: [String] = []) throws -> ChangedAssets {
        try PhotoStore.whileLocked(root) { try saveLocked(assets, edits: edits, deletions: deletions) }
    }

    private func saveLocked(_ assets: [PreparedAsset], edits: [AssetEdit], deletions: [String]) throws -> ChangedAssets {
        var staged: [(staged: URL, stored: URL)] = []
        // Stored files of deleted assets, moved aside inside the transaction.
        var setAside: [(staged: URL, stored: URL)] = []
        var done = ChangedAssets()
        do {
            // Another process's change killed since this one opened the library: finish or undo it first.
            _ = try PhotoStore.recover(database: database, originals: originals, staging: staging)
            try prepareOriginalsFolder()
            var seen = Set<String>()
            for asset in assets {
                for resource in asset.resources {
                    let name = PhotoStore.storedName(digest: resource.digest, fileExtension: resource.fileExtension)
                    let stored = originals.appendingPathComponent(name)
                    // Stored once: bytes the store already holds, or this change stages already, are not written again.
                    guard seen.insert(name).inserted, !FileManager.default.fileExists(atPath: stored.path) else { continue }
                    staged.append((try stage(resource, as: stored.lastPathComponent), stored))
                }
            }
            if !staged.isEmpty { try PhotoStore.synchronizeDirectory(staging) }
            if ProcessInfo.processInfo.environment["OPENCAPTURE_PHOTOS_FAULT"] == "after-store-write" {
                kill(getpid(), SIGKILL)   // test hook: die between the files and the transaction
            }
            try database.write { db in
                let now = Date().timeIntervalSince1970
                // In what this change did and, when that is news, in the change log.
                func record(_ id: String, _ kind: ChangeKind) throws {
                    guard done.record(id, kind) else { return }
                    try db.execute(sql: "INSERT INTO changeLog (assetID, kind) VALUES (?, ?)", arguments: [id, kind.rawValue])
                }
                var sequence = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) FROM asset") ?? 0
                for asset in assets {
                    sequence += 1
                    try db.execute(sql: """
                        INSERT INTO asset (id, sequence, mediaType, mediaSubtypes, pixelWidth, pixelHeight, duration, creationDate,
                                           modificationDate, latitude, longitude, altitude, isFavorite, isHidden)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [asset.id, sequence, asset.mediaType.rawValue, Int64(asset.mediaSubtypes.rawValue),
                                         asset.pixelWidth, asset.pixelHeight, asset.duration, asset.creationDate?.timeIntervalSince1970,
                                         now, asset.location?.coordinate.latitude,
                                         asset.location?.coordinate.longitude, asset.location?.altitude, asset.isFavorite, asset.isHidden])
                    for r in asset.resources {
                        try db.execute(sql: """
                            INSERT INTO resource (assetID, type, originalFilename, uniformTypeIdentifier, digest, fileExtension, byteCount)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, arguments: [asset.id, r.type.rawValue, r.originalFilename, r.uniformTypeIdentifier,
                                             r.digest, r.fileExtension, r.data.count])
                    }
                    try record(asset.id, .inserted)
                }
                func requireAsset(_ id: String, _ what: String) throws {
                    guard try PhotoStore.holdsAsset(id, in: db) else {
                        throw PHPhotosError(.identifierNotFound, "cannot \(what) asset \(id): the library does not hold it (deleted?)")
                    }
                }
                for edit in edits {
                    try requireAsset(edit.id, "change")
                    var columns = ["modificationDate = ?"], values: [(any DatabaseValueConvertible)?] = [now]
                    if let date = edit.creationDate { columns.append("creationDate = ?"); values.append(date?.timeIntervalSince1970) }
                    if let place = edit.location {
                        columns.append("latitude = ?, longitude = ?, altitude = ?")
                        values += [place?.coordinate.latitude, place?.coordinate.longitude, place?.altitude]
                    }
                    if let favorite = edit.isFavorite { columns.append("isFavorite = ?"); values.append(favorite) }
                    if let hidden = edit.isHidden { columns.append("isHidden = ?"); values.append(hidden) }
                    try db.execute(sql: "UPDATE asset SET \(columns.joined(separator: ", ")) WHERE id = ?",
                                   arguments: StatementArguments(values + [edit.id]))
                    try record(edit.id, .changed)
                }
                var released: [(digest: String, fileExtension: String)] = []
                for id in deletions {
                    try requireAsset(id, "delete")
                    for row in try Row.fetchAll(db, sql: "SELECT DISTINCT digest, fileExtension FROM resource WHERE assetID = ?",
                                                arguments: [id]) {
                        released.append((row["digest"], row["fileExtension"]))
                    }
                    try db.execute(sql: "DELETE FROM resource WHERE assetID = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM asset WHERE id = ?", arguments: [id])
                    try record(id, .removed)
                }
                // Bytes no remaining asset holds leave the store with the transaction.
                var seenReleased = Set<String>()
                for file in released where seenReleased.insert(file.digest + "." + file.fileExtension).inserted {
                    guard try !PhotoStore.isReferenced(digest: file.digest, fileExtension: file.fileExtension, in: db) else { continue }
                    let stored = originals.appendingPathComponent(PhotoStore.storedName(digest: file.digest, fileExtension: file.fileExtension))
                    let aside = staging.appendingPathComponent(stored.lastPathComponent)
                    try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                    if rename(stored.path, aside.path) == 0 {
                        setAside.append((aside, stored))
                    } else if errno != ENOENT {   // (a file already gone by hand needs nothing)
                        throw PHPhotosError(.accessRestricted, "cannot remove \(stored.path) from the library: \(SystemErrorReason.text(errno: errno)); nothing was deleted")
                    }
                }
                if !setAside.isEmpty { try PhotoStore.synchronizeDirectory(staging) }
            }
        } catch {
            // Nothing references the files this change staged: take them back; a deleted asset's files go back in place.
            for file in staged { try? FileManager.default.removeItem(at: file.staged) }
            for file in setAside { PhotoStore.place(file.staged, at: file.stored) }
            if let error = error as? PHPhotosError { throw error }
            throw PHPhotosError(.operationInterrupted, "the change could not be saved: \(PhotoStore.describe(error))")
        }
        // Committed: the files take their stored names (one that cannot now is renamed by the next open; it is read
        // under its staged name meanwhile), and deleted assets' files go (one that cannot now goes at the next open).
        for file in staged { PhotoStore.place(file.staged, at: file.stored) }
        for file in setAside {
            try? FileManager.default.removeItem(at: file.staged)
            rmdir(file.stored.deletingLastPathComponent().path)   // its `ab/` folder, if that was its last file
        }
        return done
    }

    /// Makes `originals/` when the library holds no file yet; with files stored, a missing folder (moved away, deleted)
    /// is an error rather than a new empty one beside the database that references them.
    private func prepareOriginalsFolder() throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: originals.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw PHPhotosError(.accessRestricted, "the library's originals folder \(originals.path) is a file")
            }
            return
        }
        let stored = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM resource") ?? 0 }
        guard stored == 0 else {
            throw PHPhotosError(.missingResource, "the library's originals folder \(originals.path) is missing (moved or deleted?): "
                                + "nothing is saved until it is back")
        }
        do {
            try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        } catch {
            throw PHPhotosError(.accessRestricted, "cannot make \(originals.path): \(PhotoStore.describe(error))")
        }
    }

    /// Writes one resource's bytes to a temporary name in `staging`, fsyncs them and renames the file to `stagedName`.
    private func stage(_ resource: PreparedResource, as stagedName: String) throws -> URL {
        let staged = staging.appendingPathComponent(stagedName)
        let temporary = staging.appendingPathComponent(".tmp-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        // Registered so an interrupted command removes it (opening the library would, later).
        TemporaryFiles.register(temporary)
        defer { TemporaryFiles.release(temporary) }
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw PHPhotosError(errno == ENOSPC || errno == EDQUOT ? .notEnoughSpace : .accessRestricted,
                                "cannot create a file in \(staging.path): \(SystemErrorReason.text(errno: errno))")
        }
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: resource.data)
            try handle.synchronize()
            if ProcessInfo.processInfo.environment["OPENCAPTURE_PHOTOS_FAULT"] == "interrupt-during-store-write" {
                kill(getpid(), SIGINT)   // test hook: Ctrl-C while a file is being stored (the handler ends the process)
                sleep(10)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw PHPhotosError(PhotoStore.isOutOfSpace(error) ? .notEnoughSpace : .accessRestricted,
                                "cannot store \(resource.originalFilename): \(PhotoStore.describe(error))")
        }
        guard rename(temporary.path, staged.path) == 0 else {
            let reason = SystemErrorReason.text(errno: errno)
            try? FileManager.default.removeItem(at: temporary)
            throw PHPhotosError(.operationInterrupted, "cannot move \(resource.originalFilename) into the store: \(reason)")
        }
        return staged
    }

    /// Renames a committed change's staged file to its stored name (its `ab/` folder made first); false when it cannot.
    @discardableResult
    private static func place(_ staged: URL, at stored: URL) -> Bool {
        try? FileManager.default.createDirectory(at: stored.deletingLastPathComponent(), withIntermediateDirectories: true)
        return rename(staged.path, stored.path) == 0
    }

    static func synchronizeDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw PHPhotosError(.operationInterrupted, "cannot open \(url.path) to sync it") }
        defer { close(fd) }
        _ = fsync(fd)
    }

    // MARK: Recovery

    /// Finishes or undoes interrupted changes (under the library's lock): removes temporary files; gives a staged file
    /// that some row references its stored name (its change committed), and removes one none references (it did not).
    /// Nothing else: stored files stay whether or not anything references them, and a referenced file that is missing
    /// leaves its asset in place. What cannot be done now (a read-only library) is left for a later open.
    private static func recover(database: DatabaseQueue, originals: URL, staging: URL)
        throws -> (temporaryFiles: Int, interruptedFiles: Int, finishedFiles: Int) {
        let fm = FileManager.default
        var temporary = 0, interrupted = 0, finished = 0
        let hex = Set("0123456789abcdef")
        // (Temporary files in `originals/` itself are an earlier version's.)
        for folder in [originals, staging] {
            for entry in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? []
            where entry.hasPrefix(".tmp-") && UUID(uuidString: String(entry.dropFirst(5))) != nil {
                if (try? fm.removeItem(at: folder.appendingPathComponent(entry))) != nil { temporary += 1 }
            }
        }
        for entry in (try? fm.contentsOfDirectory(atPath: staging.path)) ?? [] {
            let name = entry.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let digest = name.first, digest.count == 64, digest.allSatisfy(hex.contains) else { continue }
            let fileExtension = name.count > 1 ? name[1] : ""
            let referenced = try database.read { db in try isReferenced(digest: digest, fileExtension: fileExtension, in: db) }
            let url = staging.appendingPathComponent(entry)
            let stored = originals.appendingPathComponent(storedName(digest: digest, fileExtension: fileExtension))
            if referenced && !fm.fileExists(atPath: stored.path) {
                if place(url, at: stored) { finished += 1 }
            } else if (try? fm.removeItem(at: url)) != nil, !referenced {
                interrupted += 1   // (referenced and already stored: the same bytes twice)
            }
        }
        return (temporary, interrupted, finished)
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
