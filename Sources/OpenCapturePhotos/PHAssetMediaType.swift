/// What an asset is (Apple's `PHAssetMediaType`).
public enum PHAssetMediaType: Int, Sendable, Codable {
    case unknown = 0
    case image = 1
    case video = 2
    case audio = 3
}
