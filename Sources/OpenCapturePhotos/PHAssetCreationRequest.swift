import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Creates an asset from photo, video or audio resources inside a change block (Apple's
/// `PHAssetCreationRequest`, a `PHAssetChangeRequest`): `PHPhotoLibrary.shared().performChanges({ …
/// forAsset().addResource(…) … })`.
///
/// Difference: called outside a change block Apple raises an Objective-C exception; here the request
/// is detached and nothing is saved (the block's other requests are unaffected).
public final class PHAssetCreationRequest: PHAssetChangeRequest {
    /// One `addResource` call.
    struct AddedResource {
        let type: PHAssetResourceType
        let data: Data?
        let fileURL: URL?
        let options: PHAssetResourceCreationOptions?

        /// The bytes; errors begin with `label`, how the change's errors name this resource.
        func read(label: String) throws -> Data {
            if let data { return data }
            guard let fileURL else { return Data() }
            // One look at what the path names (following links): nothing, a folder, a device, pipe or socket (/dev/zero, a
            // FIFO: no photo, and reading one would never end or fail as "permission denied"), or a file.
            var status = stat()
            guard stat(fileURL.path, &status) == 0 else {
                throw PHPhotosError(.missingResource, "\(label): there is no file at \(fileURL.path)")
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw PHPhotosError(.invalidResource, "\(label) is a folder, not a file (\(fileURL.path))")
            default: throw PHPhotosError(.invalidResource, "\(label) is not a regular file (\(fileURL.path) is a device, pipe or socket)")
            }
            do {
                return try Data(contentsOf: fileURL)
            } catch {
                // The system's reason ("permission denied"), not Foundation's "NSCocoaErrorDomain error 256".
                throw PHPhotosError(.missingResource, "\(label): cannot read \(fileURL.path): \(PhotoStore.describe(error))")
            }
        }
    }

    let identifier: String
    private(set) var addedResources: [AddedResource] = []

    /// What follows the UUID in a local identifier, as on Apple's platforms ("…/L0/001").
    public static let identifierSuffix = "/L0/001"

    override init() {
        identifier = UUID().uuidString + PHAssetCreationRequest.identifierSuffix
        super.init()
    }

    /// A request for a new asset in the current change block.
    public class func forAsset() -> PHAssetCreationRequest {
        let request = PHAssetCreationRequest()
        ChangeRecorder.current?.add(request)
        return request
    }

    /// Whether resources of these types make a valid asset (Apple's `supportsAssetResourceTypes(_:)`):
    /// one photo, video or audio resource, and a paired video, alternate or full-size photo only
    /// beside a photo, at most one of each.
    public class func supportsAssetResourceTypes(_ types: [NSNumber]) -> Bool {
        let kinds = types.compactMap { PHAssetResourceType(rawValue: $0.intValue) }
        return kinds.count == types.count && resourceProblem(kinds) == nil
    }

    /// What makes these resource types an invalid asset, or nil (the one statement of the rule).
    static func resourceProblem(_ types: [PHAssetResourceType]) -> String? {
        guard !types.isEmpty else { return "an asset creation request without resources" }
        let primaries = types.filter { [.photo, .video, .audio].contains($0) }
        guard primaries.count == 1 else {
            return "an asset needs exactly one .photo, .video or .audio resource (got \(types.map { ".\($0)" }.joined(separator: ", ")))"
        }
        for dependent in [PHAssetResourceType.pairedVideo, .alternatePhoto, .fullSizePhoto] where types.contains(dependent) {
            guard primaries[0] == .photo else { return ".\(dependent) needs a .photo resource beside it" }
            guard types.filter({ $0 == dependent }).count == 1 else { return "more than one .\(dependent)" }
        }
        return nil
    }

    /// Adds a resource from data in memory.
    public func addResource(with type: PHAssetResourceType, data: Data, options: PHAssetResourceCreationOptions?) {
        addedResources.append(AddedResource(type: type, data: data, fileURL: nil, options: options))
    }

    /// Adds a resource from a file; with `options.shouldMoveFile` the file is removed once the change is saved.
    public func addResource(with type: PHAssetResourceType, fileURL: URL, options: PHAssetResourceCreationOptions?) {
        addedResources.append(AddedResource(type: type, data: nil, fileURL: fileURL, options: options))
    }

    /// Stands for the asset until the change is saved; its `localIdentifier` is the new asset's.
    public override var placeholderForCreatedAsset: PHObjectPlaceholder? { PHObjectPlaceholder(localIdentifier: identifier) }

    /// Files to remove after a successful save (`shouldMoveFile`).
    var filesToMove: [URL] {
        addedResources.compactMap { $0.options?.shouldMoveFile == true ? $0.fileURL : nil }
    }
}
