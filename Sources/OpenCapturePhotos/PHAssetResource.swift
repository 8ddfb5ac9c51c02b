import Foundation

/// One file of an asset — its photo, paired video, alternate RAW… (Apple's `PHAssetResource`).
public final class PHAssetResource: Sendable {
    public let assetLocalIdentifier: String
    public let type: PHAssetResourceType
    public let originalFilename: String
    public let uniformTypeIdentifier: String
    /// Path of the stored bytes inside the library's `originals` folder.
    let storedName: String
    let byteCount: Int
    /// The library holding the bytes.
    let store: PhotoStore

    init(store: PhotoStore, assetLocalIdentifier: String, type: PHAssetResourceType, originalFilename: String, uniformTypeIdentifier: String,
         storedName: String, byteCount: Int) {
        self.assetLocalIdentifier = assetLocalIdentifier
        self.type = type
        self.originalFilename = originalFilename
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.storedName = storedName
        self.byteCount = byteCount
        self.store = store
    }

    /// The resources of an asset, in the order they were added (none if its library cannot be read).
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        (try? asset.store.resources(of: asset.localIdentifier)) ?? []
    }

}
