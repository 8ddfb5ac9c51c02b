import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The rule for files a command names itself (`develop`, `fuse`, `depth`, `portrait`): a file already there — a
/// symbolic link included, even one that points nowhere — is kept unless the user passes `--overwrite`.
enum ExistingOutput {
    /// Throws the one-line refusal for the first of `urls` that exists, unless `overwrite`.
    static func refuse(_ urls: [URL], overwrite: Bool) throws {
        guard !overwrite else { return }
        if let existing = urls.first(where: exists) { throw CLIError("\(existing.path) exists; pass --overwrite to replace it") }
    }

    /// Whether anything is at `url`'s path, not following a final symbolic link.
    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }
}
