import Foundation

/// A raw file developed by `RawDeveloper` straight into a file on disk (OpenCapture addition).
public struct DevelopedFile: Sendable {
    /// Where the developed file is.
    public var url: URL
    public var width: Int
    public var height: Int
    public var format: DevelopedFileFormat
    /// The file's size in bytes.
    public var byteCount: Int
    /// What the raw file said about itself.
    public var info: RawPhotoInfo

    public init(url: URL, width: Int, height: Int, format: DevelopedFileFormat, byteCount: Int, info: RawPhotoInfo) {
        self.url = url
        self.width = width
        self.height = height
        self.format = format
        self.byteCount = byteCount
        self.info = info
    }
}
