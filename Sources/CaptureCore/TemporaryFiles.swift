import Foundation

/// The hidden temporary files this process is writing (a photo before its rename, a movie being recorded), so that
/// an interrupted command can remove them (`removeAll`, from the `opencapture` command's SIGINT/SIGTERM/SIGHUP
/// handling) instead of leaving `.name.partial` files behind. Writers `register` a path before creating the file and
/// `release` it once it is renamed or removed; a path left registered after its file was renamed away is harmless
/// (removing it finds nothing).
public enum TemporaryFiles {
    private static let paths = Locked<Set<String>>([])

    public static func register(_ url: URL) { _ = paths.withLock { $0.insert(url.path) } }

    public static func release(_ url: URL) { _ = paths.withLock { $0.remove(url.path) } }

    /// Whether `url` is registered.
    package static func isRegistered(_ url: URL) -> Bool { paths.withLock { $0.contains(url.path) } }

    /// Removes every registered file; returns how many were there.
    @discardableResult
    public static func removeAll() -> Int {
        paths.withLock { set in
            let removed = set.filter { unlink($0) == 0 }.count
            set.removeAll()
            return removed
        }
    }
}
