import Foundation

/// A raw file developed by `RawDeveloper` and encoded (OpenCapture addition).
public struct DevelopedPhoto: Sendable {
    public var width: Int
    public var height: Int
    public var format: DevelopedFileFormat
    /// The encoded file, ready to write.
    public var data: Data
    /// What the raw file said about itself.
    public var info: RawPhotoInfo

    public init(width: Int, height: Int, format: DevelopedFileFormat, data: Data, info: RawPhotoInfo) {
        self.width = width
        self.height = height
        self.format = format
        self.data = data
        self.info = info
    }
}
