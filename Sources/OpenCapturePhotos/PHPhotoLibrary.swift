import CaptureCore
import Foundation

/// The photo library (Apple's `PHPhotoLibrary`): a SQLite database and a content-addressed file
/// store in a folder (see `PhotoStore`).
///
/// `shared()` lives in `$OPENCAPTURE_PHOTO_LIBRARY`, else `$XDG_DATA_HOME/opencapture/Photos`, else
/// `$HOME/.local/share/opencapture/Photos`; `init(url:)` (OpenCapture addition) opens any other folder.
/// Changes from any thread run one at a time on the library's queue; a change's assets are all
/// saved or none is. While change observers are registered, changes other processes (or other `PHPhotoLibrary`
/// objects on the same folder) save are noticed too: the database is polled every `watchInterval` seconds, and at
/// each change made here, for assets added since the last the observers were told of.
public final class PHPhotoLibrary: @unchecked Sendable {
    // `@unchecked Sendable`: `observersLock` guards `observers`, `toldUpTo` and `watcher`, `openLock` guards `opened`:
    // the only mutable fields.
    public let url: URL
    private let queue = DispatchQueue(label: "OpenCapturePhotos.PHPhotoLibrary")
    /// Where completion handlers run, in the order of their changes (off the library's queue: see `performChanges`).
    private let completionQueue = DispatchQueue(label: "OpenCapturePhotos.PHPhotoLibrary.completions")
    /// Marks the library's queue, so a change asked for from inside a change block or an observer is refused.
    private let onQueue = DispatchSpecificKey<Bool>()
    private let observersLock = NSLock()
    private var observers: [WeakObserver] = []
    private let openLock = NSLock()
    private var opened: PhotoStore?
    /// The number of the newest change-log entry the observers have been told of (or that was there when the first
    /// registered); nil while none is registered.
    private var toldUpTo: Int?
    /// Polls for other processes' changes while observers are registered.
    private var watcher: (any DispatchSourceTimer)?

    /// How often a library with change observers looks for changes saved elsewhere, in seconds (OpenCapture addition).
    public static let watchInterval = 0.5

    private struct WeakObserver {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
    }

    private static let sharedLibrary = Locked<PHPhotoLibrary?>(nil)

    /// The library at `url` (created on first use). OpenCapture addition.
    public init(url: URL) {
        self.url = url
        queue.setSpecific(key: onQueue, value: true)
    }

    deinit { watcher?.cancel() }

    /// The user's library.
    public class func shared() -> PHPhotoLibrary {
        sharedLibrary.withLock { library in
            if let library { return library }
            let made = PHPhotoLibrary(url: defaultLocation())
            library = made
            return made
        }
    }

    /// Points `shared()` at another folder from now on (tests, sandboxes). OpenCapture addition.
    public class func useSharedLibrary(at url: URL) {
        sharedLibrary.withLock { $0 = PHPhotoLibrary(url: url) }
    }

    /// Where `shared()` lives by default: `$OPENCAPTURE_PHOTO_LIBRARY`, else `$XDG_DATA_HOME/opencapture/Photos`, else
    /// `$HOME/.local/share/opencapture/Photos` (the account's home folder only when `HOME` is unset, as XDG says).
    public class func defaultLocation() -> URL {
        defaultLocation(environment: ProcessInfo.processInfo.environment)
    }

    static func defaultLocation(environment: [String: String]) -> URL {
        func folder(_ name: String) -> URL? {
            environment[name].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
        }
        if let library = folder("OPENCAPTURE_PHOTO_LIBRARY") { return library }
        let home = folder("HOME") ?? FileManager.default.homeDirectoryForCurrentUser
        let data = folder("XDG_DATA_HOME") ?? home.appendingPathComponent(".local/share", isDirectory: true)
        return data.appendingPathComponent("opencapture/Photos", isDirectory: true)
    }

    // MARK: Authorization (always granted: the library is a folder the process can write)

    public class func authorizationStatus() -> PHAuthorizationStatus { .authorized }
    public class func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus { .authorized }

    public class func requestAuthorization(_ handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        DispatchQueue.global().async { handler(.authorized) }
    }

    public class func requestAuthorization(for accessLevel: PHAccessLevel,
                                           handler: @escaping @Sendable (PHAuthorizationStatus) -> Void) {
        DispatchQueue.global().async { handler(.authorized) }
    }

    public class func requestAuthorization(for accessLevel: PHAccessLevel) async -> PHAuthorizationStatus { .authorized }

    // MARK: Changes

    /// Runs `changeBlock` on the library's queue, saves what it requested as one change and tells the change
    /// observers, then calls `completionHandler` (success, error) on a serial queue of its own — the change has
    /// finished, so the handler may start another, even with `performChangesAndWait`.
    ///
    /// `changeBlock` is Apple's `@escaping () -> Void`, not `@Sendable`, so it may set the caller's variables (AVCam's
    /// `placeholder = change()`); as on Apple's platforms, the caller must leave what it captures alone until the
    /// completion handler runs.
    public func performChanges(_ changeBlock: @escaping () -> Void,
                               completionHandler: (@Sendable (Bool, (any Error)?) -> Void)? = nil) {
        // Sound: the block crosses to the library's queue once and runs there once; the caller keeps no other way to run
        // it, and Apple's contract leaves what it captures to the library until the completion handler.
        nonisolated(unsafe) let block = changeBlock
        queue.async {
            let result = Result { _ = try self.apply(block) }
            guard let completionHandler else { return }
            self.completionQueue.async {
                switch result {
                case .success: completionHandler(true, nil)
                case .failure(let error): completionHandler(false, error)
                }
            }
        }
    }

    /// Apple's `async` form (iOS 15): runs `changeBlock` on the library's queue and returns once its change is saved
    /// (and the change observers told), throwing what went wrong. The block is `@escaping () -> Void` as Apple's, so
    /// `var placeholder: PHObjectPlaceholder?; try await library.performChanges { placeholder = change() }` compiles
    /// in Swift 6 (AVCam 2024). The call runs in its caller's isolation (`nonisolated(nonsending)`, where Apple's is
    /// imported from Objective-C), so Swift 6 code on the main actor or another actor can call it with a block it
    /// formed there: nothing is sent across isolation by the call. As with Apple's, the block itself still runs on the
    /// library's queue, not on the caller's actor: it should only make change requests.
    nonisolated(nonsending)
    public func performChanges(_ changeBlock: @escaping () -> Void) async throws {
        // Sound: the caller is suspended until the block has run, once, on the library's queue.
        nonisolated(unsafe) let block = changeBlock
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            performChanges(block) { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Runs `changeBlock` and saves its change before returning; throws what went wrong. Called from
    /// inside a change block or a change observer it throws `.changeNotSupported` (Apple raises).
    public func performChangesAndWait(_ changeBlock: @escaping () -> Void) throws {
        _ = try applyAndWait(changeBlock, skippingInvalidCreations: false)
    }

    /// `performChangesAndWait`, saving the creation requests that are valid and leaving out those whose resources are
    /// not (what an import of a folder does with the files in it that are no photo); returns the left-out requests'
    /// positions (from 0, in the order the block made them) with why. Edits, deletions and a failure to save still
    /// fail the whole change.
    package func performChangesAndWaitSkippingInvalidCreations(_ changeBlock: @escaping () -> Void) throws
        -> [(request: Int, error: PHPhotosError)] {
        try applyAndWait(changeBlock, skippingInvalidCreations: true)
    }

    /// `apply` on the library's queue while the caller waits; refused from that queue (a change block or an observer).
    private func applyAndWait(_ changeBlock: () -> Void, skippingInvalidCreations: Bool) throws -> [(request: Int, error: PHPhotosError)] {
        if DispatchQueue.getSpecific(key: onQueue) == true {
            throw PHPhotosError(.changeNotSupported, "performChangesAndWait inside a change block or a change observer")
        }
        return try queue.sync { try apply(changeBlock, skippingInvalidCreations: skippingInvalidCreations) }
    }

    /// Tells `observer` (held weakly) of each change saved from now on, here or in another process.
    public func register(_ observer: any PHPhotoLibraryChangeObserver) {
        let newest = newestChange()
        observersLock.withLock {
            observers.removeAll { $0.observer == nil }
            observers.append(WeakObserver(observer: observer))
            if toldUpTo == nil { toldUpTo = newest }
            if watcher == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + Self.watchInterval, repeating: Self.watchInterval, leeway: .milliseconds(100))
                timer.setEventHandler { [weak self] in self?.announceChanges(madeHere: PhotoStore.ChangedAssets()) }
                timer.resume()
                watcher = timer
            }
        }
    }

    public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
        observersLock.withLock {
            observers.removeAll { $0.observer == nil || $0.observer === observer }
            stopWatchingIfUnobservedLocked()
        }
    }

    /// With no observer left: no more polling, and no position kept.
    private func stopWatchingIfUnobservedLocked() {
        guard observers.isEmpty else { return }
        watcher?.cancel()
        watcher = nil
        toldUpTo = nil
    }

    /// The number of the library's newest change-log entry, 0 when it has none or does not exist yet.
    private func newestChange() -> Int {
        (try? store(creating: false).newestChange()) ?? 0
    }

    /// On the library's queue: record, prepare, save, notify; with `skippingInvalidCreations`, creation requests that
    /// cannot be prepared are left out and returned instead of failing the change.
    private func apply(_ block: () -> Void, skippingInvalidCreations: Bool = false) throws -> [(request: Int, error: PHPhotosError)] {
        let recorder = ChangeRecorder.record(block)
        if let problem = recorder.problems.first { throw PHPhotosError(.invalidResource, problem) }
        let requests = recorder.creations
        let edits = recorder.edits.map { request in
            PhotoStore.AssetEdit(id: request.editedIdentifier ?? "",
                                 creationDate: request.setsCreationDate ? .some(request.creationDate) : nil,
                                 location: request.setsLocation ? .some(request.location) : nil,
                                 isFavorite: request.setsFavorite ? request.isFavorite : nil,
                                 isHidden: request.setsHidden ? request.isHidden : nil)
        }
        // (Opened, made if need be, even for an empty change: the studio's start-up check relies on it.)
        let store = try self.store()
        guard !requests.isEmpty || !edits.isEmpty || !recorder.deletions.isEmpty else { return [] }
        var skipped: [(request: Int, error: PHPhotosError)] = []
        let prepared = try requests.enumerated().compactMap { index, request -> PreparedAsset? in
            do {
                return try PreparedAsset(request)
            } catch let error as PHPhotosError where skippingInvalidCreations {
                skipped.append((index, error))
                return nil
            } catch let error as PHPhotosError where requests.count > 1 {
                // Which of the change's requests, as the caller made them.
                throw PHPhotosError(error.code, "creation request \(index + 1) of \(requests.count): \(error.reason)")
            }
        }
        let saved = Set(prepared.map(\.id))
        let done = try store.save(prepared, edits: edits, deletions: recorder.deletions)
        for url in recorder.creations.filter({ saved.contains($0.identifier) }).flatMap(\.filesToMove) {
            try? FileManager.default.removeItem(at: url)
        }
        announceChanges(madeHere: done)
        return skipped
    }

    /// On the library's queue: tells the observers of changes saved elsewhere since they were last told (one change),
    /// then of `madeHere`, the change just saved here (another).
    private func announceChanges(madeHere: PhotoStore.ChangedAssets) {
        let (current, since) = observersLock.withLock { () -> ([any PHPhotoLibraryChangeObserver], Int?) in
            observers.removeAll { $0.observer == nil }
            stopWatchingIfUnobservedLocked()
            return (observers.compactMap(\.observer), toldUpTo)
        }
        guard !current.isEmpty, let since else { return }
        var elsewhere = PhotoStore.ChangedAssets()
        if let logged = try? store(creating: false).changes(after: since) {
            observersLock.withLock { if let told = toldUpTo { toldUpTo = max(told, logged.newest) } }
            // The log holds this change too: what is left once it is taken out was saved elsewhere.
            let here = Set(madeHere.inserted + madeHere.changed + madeHere.removed)
            elsewhere = PhotoStore.ChangedAssets(inserted: logged.assets.inserted.filter { !here.contains($0) },
                                                 changed: logged.assets.changed.filter { !here.contains($0) },
                                                 removed: logged.assets.removed.filter { !here.contains($0) })
        }
        for assets in [elsewhere, madeHere] where !assets.isEmpty {
            let change = PHChange(assets)
            for observer in current { observer.photoLibraryDidChange(change) }
        }
    }

    // MARK: Reading

    /// The opened store (opening, migrating and recovering it the first time); with `creating` (a change), made when
    /// there is none. Only an open library is remembered: one that cannot be opened now (not there yet, a read-only or
    /// unmounted disk, a damaged database) is tried again at the next use.
    func store(creating: Bool = true) throws -> PhotoStore {
        try openLock.withLock {
            if let opened { return opened }
            do {
                let store = try PhotoStore(root: url, creating: creating)
                opened = store
                return store
            } catch {
                throw (error as? PHPhotosError) ?? PHPhotosError(.accessRestricted, "\(error)")
            }
        }
    }

    /// Opens the library at `url` without creating it, throwing why it cannot be read: no library there, a damaged
    /// database, no permission (OpenCapture addition: fetches return no assets instead).
    public func openExistingLibrary() throws {
        _ = try store(creating: false)
    }

    /// Whether an asset of this existing library holds `data` as its photo or video (what an import skips as a
    /// duplicate); false when there is no library.
    package func holdsAsset(withMainResource data: Data) -> Bool {
        (try? store(creating: false).holdsMainResource(data)) ?? false
    }

    /// Assets of this library with these identifiers (OpenCapture addition).
    public func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetchAssets(mediaType: nil, identifiers: identifiers, options: options)
    }

    /// Assets of this library (OpenCapture addition; `PHAsset.fetchAssets` reads `shared()`).
    public func fetchAssets(with options: PHFetchOptions? = nil) -> PHFetchResult<PHAsset> {
        fetchAssets(mediaType: nil, identifiers: nil, options: options)
    }

    /// Assets of one media type in this library (OpenCapture addition).
    public func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        fetchAssets(mediaType: mediaType, identifiers: nil, options: options)
    }

    func fetchAssets(mediaType: PHAssetMediaType?, identifiers: [String]?, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        let descriptors = options?.sortDescriptors ?? []
        // A leading creationDate sort runs in SQL; anything else sorts the fetched assets.
        let byDate = descriptors.first.flatMap { $0.keyPath == \PHAsset.creationDate ? !$0.ascending : nil }
        // No library (yet) or an unreadable one: no assets, but a result that can be run again, so a change observer
        // still gets its details once a change makes the library (an app's first launch).
        var assets = (try? store(creating: false).assets(mediaType: mediaType, identifiers: identifiers,
                                                     includingHidden: options?.includeHiddenAssets ?? false, newestFirst: byDate)) ?? []
        if let predicate = options?.predicate { assets = assets.filter { predicate.evaluate(with: $0) } }
        if descriptors.count > (byDate == nil ? 0 : 1) {
            assets.sort { a, b in
                for d in descriptors {
                    let order = d.compare(a, to: b)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return false
            }
        }
        if let limit = options?.fetchLimit, limit > 0, assets.count > limit { assets = Array(assets.prefix(limit)) }
        return PHFetchResult(assets) { [self] in self.fetchAssets(mediaType: mediaType, identifiers: identifiers, options: options) }
    }
}
