import Foundation
import Testing
@testable import OpenCapturePhotos

@Suite struct PHAssetResourceManagerTests {
    /// Writes the library's one resource to `url`; the error, if any.
    static func write(_ library: PHPhotoLibrary, to url: URL) throws -> PHPhotosError? {
        let asset = try #require(library.fetchAssets().firstObject)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let done = DispatchSemaphore(value: 0), failure = LockedError()
        PHAssetResourceManager.default().writeData(for: resource, toFile: url, options: nil) { failure.set($0); done.signal() }
        done.wait()
        return failure.get().map { $0 as? PHPhotosError ?? PHPhotosError(.invalid, "not a PHPhotosError: \($0)") }
    }

    /// A missing folder or one that cannot be written is the destination's fault (`.invalid`, saying why), not a full
    /// disk; only ENOSPC (or a quota) is `.notEnoughSpace`.
    @Test func aDestinationThatCannotBeWrittenIsInvalidNotAFullDisk() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 91), options: nil) }
        let missing = folder.appendingPathComponent("no/such/folder/out.jpg")
        let error = try Self.write(library, to: missing)
        #expect(error?.code == .invalid && error?.reason == "cannot write \(missing.path): there is no folder \(missing.deletingLastPathComponent().path)",
                "\(String(describing: error))")
        let url = folder.appendingPathComponent("out.jpg")
        func fileError(_ posix: Int32) -> NSError {
            NSError(domain: NSCocoaErrorDomain, code: NSFileWriteUnknownError,
                    userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(posix))])
        }
        #expect(PHAssetResourceManager.writeFailure(fileError(EROFS), at: url) == PHPhotosError(.invalid, "cannot write \(url.path): the disk is read-only"))
        #expect(PHAssetResourceManager.writeFailure(fileError(EACCES), at: url).code == .invalid)
        #expect(PHAssetResourceManager.writeFailure(fileError(ENOSPC), at: url) == PHPhotosError(.notEnoughSpace, "cannot write \(url.path): no space left on device"))
        #expect(PHAssetResourceManager.writeFailure(fileError(EDQUOT), at: url).code == .notEnoughSpace)
    }

    /// Where a folder can be locked against writes even for root (`chattr +i`), the real write gives the same answer.
    @Test(.enabled(if: PHAssetResourceCreationOptionsTests.canLockFolders, "needs chattr +i on a folder (root, ext4 or xfs)"))
    func aLockedFolderIsInvalid() throws {
        let (library, folder) = try PhotoFixtures.library()
        let locked = folder.appendingPathComponent("locked", isDirectory: true)
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 92), options: nil) }
        #expect(try PHAssetResourceCreationOptionsTests.chattr.run(["+i", locked.path]).status == 0)
        defer {
            _ = try? PHAssetResourceCreationOptionsTests.chattr.run(["-i", locked.path])
            try? FileManager.default.removeItem(at: folder)
        }
        let error = try Self.write(library, to: locked.appendingPathComponent("out.jpg"))
        #expect(error?.code == .invalid && error?.reason.hasSuffix("permission denied") == true, "\(String(describing: error))")
    }
}
