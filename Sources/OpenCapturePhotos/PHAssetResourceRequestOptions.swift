/// How a resource's data is requested (Apple's `PHAssetResourceRequestOptions`). Everything is
/// local, so network access is never needed; the progress handler is called once with 1.
public final class PHAssetResourceRequestOptions {
    public var isNetworkAccessAllowed = false
    public var progressHandler: (@Sendable (Double) -> Void)?
    public init() {}
}
