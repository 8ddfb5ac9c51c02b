/// The role of a file within an asset (Apple's `PHAssetResourceType`, with its raw values).
public enum PHAssetResourceType: Int, Sendable, CaseIterable {
    case photo = 1
    case video = 2
    case audio = 3
    /// Another version of the photo, e.g. the RAW of a RAW + JPEG pair.
    case alternatePhoto = 4
    case fullSizePhoto = 5
    case fullSizeVideo = 6
    case adjustmentData = 7
    case adjustmentBasePhoto = 8
    /// A Live Photo's movie.
    case pairedVideo = 9
    case fullSizePairedVideo = 10
    case adjustmentBasePairedVideo = 11
    case adjustmentBaseVideo = 12
    case photoProxy = 19
}
