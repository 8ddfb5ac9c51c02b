import Foundation
import OpenCapturePhotos

/// A request the studio refuses: an HTTP status and a reason, sent as JSON `{"error": reason}`.
struct StudioError: Error, CustomStringConvertible {
    let status: Int
    let reason: String
    init(status: Int, _ reason: String) { (self.status, self.reason) = (status, reason) }
    var description: String { reason }
}


extension StudioError {
    /// The refusal as the user knows the file: `resource`'s original filename in place of its stored file's path, name
    /// or digest (the library's SHA-256 name), and said first when the reason names no file.
    func naming(_ resource: PHAssetResource) -> StudioError {
        let name = resource.originalFilename
        var text = reason
        if let stored = try? PHAssetResourceManager.default().fileURL(for: resource) {
            for storedName in [stored.path, stored.lastPathComponent, stored.deletingPathExtension().lastPathComponent] where !storedName.isEmpty {
                text = text.replacingOccurrences(of: storedName, with: name)
            }
        }
        if !text.contains(name) { text = "\(name): \(text)" }
        return StudioError(status: status, text)
    }
}
