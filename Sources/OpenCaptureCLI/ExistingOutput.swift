import Foundation
import OpenCapture

/// The rule for files a command names itself (`develop`, `fuse`, `depth`, `portrait`, `export-motion-photo`): a file
/// already there (`AtomicFile.exists`: a symbolic link included, even one that points nowhere) is kept unless the user
/// passes `--overwrite`.
enum ExistingOutput {
    /// Throws the one-line refusal for the first of `urls` that exists, unless `overwrite`.
    static func refuse(_ urls: [URL], overwrite: Bool) throws {
        guard !overwrite else { return }
        if let existing = urls.first(where: AtomicFile.exists) { throw CLIError("\(existing.path) exists; pass --overwrite to replace it") }
    }
}
