import Foundation

/// The one way tests reach files outside the repository: the `shared` folder beside the repository
/// root (`../shared`, holding e.g. `data/demosaic/kodak24`), found from this file's `#filePath`.
///
/// A user's clone has no `../shared`, so every lookup returns nil when the folder or file is absent
/// and the test is skipped:
///
/// ```swift
/// @Test(.enabled(if: SharedData.file("data/demosaic/kodak24") != nil, "../shared test images absent"))
/// func demosaicsKodak() throws {
///     let folder = try #require(SharedData.file("data/demosaic/kodak24"))
///     …
/// }
/// ```
public enum SharedData {
    /// The repository root: the folder holding `Package.swift`, two levels above this file
    /// (`Tests/TestSupport/SharedData.swift`).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Tests/TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository root

    /// `../shared` relative to the repository root, or nil when that folder does not exist.
    public static let folder: URL? = {
        let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared", isDirectory: true)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        return url.standardizedFileURL
    }()

    /// A file or folder inside `../shared` (e.g. `"data/demosaic/kodak24/kodim01.png"`), or nil when
    /// `../shared` or the item is absent.
    public static func file(_ relativePath: String) -> URL? {
        guard let url = folder?.appendingPathComponent(relativePath),
              FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }
}
