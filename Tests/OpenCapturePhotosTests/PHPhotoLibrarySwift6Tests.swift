import Foundation
import Testing
@testable import OpenCapturePhotos

/// AVCam (2024, Swift 6)'s `MediaLibrary`, as Apple wrote it: its change closure sets a variable of the actor's method,
/// which compiles only if `performChanges` takes Apple's `@escaping () -> Void` (this target is in Swift 6 mode).
actor AVCamMediaLibrary {
    let library: PHPhotoLibrary
    init(library: PHPhotoLibrary) { self.library = library }

    func save(photo: Data) async throws -> String? {
        try await performChange {
            let creationRequest = PHAssetCreationRequest.forAsset()
            creationRequest.addResource(with: .photo, data: photo, options: nil)
            return creationRequest.placeholderForCreatedAsset
        }
    }

    private func performChange(_ change: @Sendable @escaping () -> PHObjectPlaceholder?) async throws -> String? {
        var placeholder: PHObjectPlaceholder?
        try await library.performChanges {
            // Execute the change closure.
            placeholder = change()
        }
        return placeholder?.localIdentifier
    }
}

@Suite struct PHPhotoLibrarySwift6Tests {
    @Test func avcamsMediaLibraryCompilesAndSaves() async throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let id = try await AVCamMediaLibrary(library: library).save(photo: try PhotoFixtures.jpeg(seed: 51))
        #expect(id?.hasSuffix(PHAssetCreationRequest.identifierSuffix) == true)
        #expect(library.fetchAssets(withLocalIdentifiers: [id ?? ""], options: nil).count == 1)
        // The completion form and performChangesAndWait take Apple's escaping block too.
        var second: PHObjectPlaceholder?
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! PhotoFixtures.jpeg(seed: 52), options: nil)
            second = request.placeholderForCreatedAsset
        }
        #expect(library.fetchAssets(withLocalIdentifiers: [second?.localIdentifier ?? ""], options: nil).count == 1)
    }

    /// The completion handler runs once the change has finished, off the library's queue: it may wait for another
    /// change (not a nested change, which is refused).
    @Test func theCompletionHandlerMayWaitForAnotherChange() throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try PhotoFixtures.jpeg(seed: 53), second = try PhotoFixtures.jpeg(seed: 54)
        let done = DispatchSemaphore(value: 0), failure = LockedError()
        library.performChanges({
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: first, options: nil)
        }, completionHandler: { success, _ in
            do {
                try library.performChangesAndWait { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: second, options: nil) }
            } catch {
                failure.set(error)
            }
            done.signal()
        })
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(failure.get() == nil, "\(String(describing: failure.get()))")
        #expect(library.fetchAssets().count == 2)
    }
}

/// A view model on the main actor saving with the async form, as a Swift 6 app writes it: it compiles only because
/// `performChanges(_:) async` runs in its caller's isolation (`nonisolated(nonsending)`), so the change block — formed
/// on the main actor, setting a variable of the method — is not sent anywhere by the call.
@MainActor final class MainActorGallery {
    private(set) var saved: [String] = []

    func save(_ photo: Data, to library: PHPhotoLibrary) async throws {
        var placeholder: PHObjectPlaceholder?
        try await library.performChanges {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: photo, options: nil)
            placeholder = request.placeholderForCreatedAsset
        }
        saved.append(placeholder?.localIdentifier ?? "")
    }
}

@Suite struct PHPhotoLibraryMainActorTests {
    @Test @MainActor func aMainActorModelSavesWithTheAsyncForm() async throws {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gallery = MainActorGallery()
        try await gallery.save(try PhotoFixtures.jpeg(seed: 55), to: library)
        #expect(gallery.saved.count == 1 && gallery.saved[0].hasSuffix(PHAssetCreationRequest.identifierSuffix))
        #expect(library.fetchAssets(withLocalIdentifiers: gallery.saved, options: nil).count == 1)
    }
}
