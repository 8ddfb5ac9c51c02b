import Foundation

/// Creates, edits or deletes assets inside a change block (Apple's `PHAssetChangeRequest`):
/// `PHAssetChangeRequest(for: asset).isFavorite = true`, `PHAssetChangeRequest.deleteAssets([asset] as NSArray)`,
/// `PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: movie)`.
///
/// Differences: deleting asks no one (Apple shows the user a confirmation and keeps the assets 30 days in Recently
/// Deleted; here they and their files, when no other asset shares the bytes, are gone once the change is saved);
/// editing an asset's content (`contentEditingOutput`, `revertAssetContentToOriginal()`) is not available.
/// Outside a change block Apple raises an Objective-C exception; here the request is detached and saves nothing.
public class PHAssetChangeRequest {
    /// The asset an editing request changes (nil for a creation request).
    let editedIdentifier: String?
    /// Which properties an editing request sets (a creation request saves all of them).
    private(set) var setsCreationDate = false, setsLocation = false, setsFavorite = false, setsHidden = false

    /// The asset's creation date. A new asset without one takes its photo's EXIF DateTimeOriginal, else the moment the
    /// change is saved.
    public var creationDate: Date? { didSet { setsCreationDate = true } }
    /// Where the asset was taken. A new asset without one takes its photo's EXIF GPS position, if it has one.
    public var location: CLLocation? { didSet { setsLocation = true } }
    /// A favourite.
    public var isFavorite: Bool { didSet { setsFavorite = true } }
    /// Hidden: fetches leave the asset out unless their options set `includeHiddenAssets`.
    public var isHidden: Bool { didSet { setsHidden = true } }

    /// For a creation request, stands for the new asset until the change is saved (its `localIdentifier` is the
    /// asset's); nil for a request that edits an asset.
    public var placeholderForCreatedAsset: PHObjectPlaceholder? { nil }

    /// A creation request's start: no asset, nothing set.
    init() {
        editedIdentifier = nil
        isFavorite = false
        isHidden = false
    }

    /// A request to change `asset`'s creation date, location, favourite or hidden state in the current change block;
    /// what it leaves unset stays as it is. Saving it fails with `.identifierNotFound` when the library no longer holds
    /// the asset.
    public convenience init(for asset: PHAsset) {
        self.init(editing: asset)
        ChangeRecorder.current?.edit(self)
    }

    private init(editing asset: PHAsset) {
        editedIdentifier = asset.localIdentifier
        creationDate = asset.creationDate
        location = asset.location
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
    }

    /// A creation request for a photo in a file (JPEG, HEIF, PNG, TIFF, DNG or camera raw): `PHAssetCreationRequest`
    /// with one `.photo` resource. The file is read when the change is saved; one that is not a readable image fails
    /// the change (`.invalidResource`, `.missingResource`). Apple returns nil for a file it cannot read at once.
    public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> PHAssetChangeRequest? {
        let request = PHAssetCreationRequest.forAsset()
        request.addResource(with: .photo, fileURL: fileURL, options: nil)
        return request
    }

    /// A creation request for a QuickTime or MPEG-4 movie in a file: `PHAssetCreationRequest` with one `.video`
    /// resource, read when the change is saved.
    public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> PHAssetChangeRequest? {
        let request = PHAssetCreationRequest.forAsset()
        request.addResource(with: .video, fileURL: fileURL, options: nil)
        return request
    }

    /// Deletes the assets (`PHAsset`s in an `NSArray`, `NSSet`, `NSOrderedSet` or a `PHFetchResult`) when the change
    /// is saved, with their stored files unless another asset holds the same bytes. Anything else in the collection,
    /// or an asset the library does not hold, fails the change (`.invalidResource`, `.identifierNotFound`).
    public class func deleteAssets(_ assets: any NSFastEnumeration) {
        ChangeRecorder.current?.delete(assets)
    }
}
