import Foundation
import OpenCaptureTestSupport
import Testing
@testable import OpenCapturePhotos

@Suite struct PHAssetResourceCreationOptionsTests {
    static let chattr = ExternalTool("chattr")

    /// Whether this machine can lock a folder against removals even for root (`chattr +i`: root, ext4 or xfs).
    static let canLockFolders: Bool = {
        guard chattr.isInstalled, let folder = try? ExternalTool.temporaryDirectory() else { return false }
        defer { _ = try? chattr.run(["-i", folder.path]); try? FileManager.default.removeItem(at: folder) }
        return (try? chattr.run(["+i", folder.path]))?.status == 0 && access(folder.path, W_OK) != 0
    }()

    /// `shouldMoveFile` with a file that cannot be removed: the change is refused, naming it, before anything is
    /// saved (not saved with the file left behind as if moved); without the option it is copied.
    @Test(.enabled(if: canLockFolders, "needs chattr +i on a folder (root, ext4 or xfs)"))
    func aFileThatCannotBeRemovedIsNotMoved() throws {
        let (library, folder) = try PhotoFixtures.library()
        let locked = folder.appendingPathComponent("locked", isDirectory: true)
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let photo = locked.appendingPathComponent("IMG_0007.JPG")
        try PhotoFixtures.jpeg(seed: 81).write(to: photo)
        #expect(try Self.chattr.run(["+i", locked.path]).status == 0)
        defer {
            _ = try? Self.chattr.run(["-i", locked.path])
            try? FileManager.default.removeItem(at: folder)
        }
        let move = PHAssetResourceCreationOptions()
        move.shouldMoveFile = true
        do {
            try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: photo, options: move) }
            Issue.record("a file that cannot be removed was moved")
        } catch let error as PHPhotosError {
            #expect(error.code == .invalidResource && error.reason.hasPrefix("resource 1 (.photo, IMG_0007.JPG) cannot be moved into the library"),
                    "\(error)")
        }
        #expect(library.fetchAssets().count == 0 && PhotoFixtures.storedFiles(library).isEmpty)
        #expect(FileManager.default.fileExists(atPath: photo.path))
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: photo, options: nil) }
        #expect(library.fetchAssets().count == 1 && FileManager.default.fileExists(atPath: photo.path))
    }
}
