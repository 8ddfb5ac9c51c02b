import Foundation

/// A photo, video or Live Photo in the library (Apple's `PHAsset`): what it is, its size, dates and place.
public final class PHAsset: Sendable {
    /// Stable identifier, e.g. for `fetchAssets(withLocalIdentifiers:options:)`.
    public let localIdentifier: String
    public let mediaType: PHAssetMediaType
    /// `.photoLive` for a Live Photo (a `.pairedVideo` beside the photo), `.photoDepthEffect` for a
    /// photo carrying depth.
    public let mediaSubtypes: PHAssetMediaSubtype
    /// Size of the photo as shown — its orientation applied, as Photos reports it: an upright phone's photo is portrait
    /// — or of a video's first video track as shown (its matrix applied).
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// A video's length in seconds; 0 for photos.
    public let duration: TimeInterval
    public let creationDate: Date?
    public let modificationDate: Date?
    public let location: CLLocation?
    public let isFavorite: Bool
    /// Hidden (`PHAssetCreationRequest.isHidden`): left out of fetches unless `PHFetchOptions.includeHiddenAssets`.
    public let isHidden: Bool
    /// The library it was fetched from.
    let store: PhotoStore

    init(store: PhotoStore, localIdentifier: String, mediaType: PHAssetMediaType, mediaSubtypes: PHAssetMediaSubtype, pixelWidth: Int,
         pixelHeight: Int, duration: TimeInterval, creationDate: Date?, modificationDate: Date?, location: CLLocation?, isFavorite: Bool,
         isHidden: Bool) {
        self.localIdentifier = localIdentifier
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.duration = duration
        self.creationDate = creationDate
        self.modificationDate = modificationDate
        self.location = location
        self.isFavorite = isFavorite
        self.isHidden = isHidden
        self.store = store
    }

    /// Every asset of the shared library, filtered and sorted by `options`.
    public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.shared().fetchAssets(mediaType: nil, identifiers: nil, options: options)
    }

    /// The shared library's assets of one media type.
    public class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.shared().fetchAssets(mediaType: mediaType, identifiers: nil, options: options)
    }

    /// The shared library's assets with these identifiers (those that exist).
    public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.shared().fetchAssets(mediaType: nil, identifiers: identifiers, options: options)
    }
}

/// Equal and hashed by `localIdentifier`, as Apple's (an `NSObject`, `isEqual:` by identifier): the same asset fetched
/// twice is one `Set` member, one dictionary key.
extension PHAsset: Hashable {
    public static func == (a: PHAsset, b: PHAsset) -> Bool { a.localIdentifier == b.localIdentifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(localIdentifier) }
}
