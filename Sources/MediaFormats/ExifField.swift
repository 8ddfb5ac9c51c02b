/// One EXIF field as a written file carries it: the directory it sits in, its tag, and its value decoded from the bytes
/// `ExifWriter` writes (rationals as the file rounds them). What a reader of the file (ImageIO, exiftool) sees, so a
/// metadata dictionary built from `ExifWriter.fields(for:)` says what the photo's file says, tag for tag.
public struct ExifField: Sendable, Equatable {
    /// Where the field sits.
    public enum Directory: Sendable, Equatable {
        /// IFD0, the image's own tags (ImageIO's `{TIFF}`).
        case image
        /// The Exif IFD (ImageIO's `{Exif}`).
        case exif
        /// The GPS IFD (ImageIO's `{GPS}`).
        case gps
        /// The IFD inside the Apple MakerNote (ImageIO's `{MakerApple}`, keyed by the tag in decimal).
        case appleMakerNote
    }

    /// A value as its TIFF type reads.
    public enum Value: Sendable, Equatable {
        /// ASCII, and UserComment's text after its character code.
        case text(String)
        /// BYTE, SHORT, LONG and their signed kinds: every value.
        case integers([Int])
        /// RATIONAL and SRATIONAL (as the file's fractions give them), FLOAT, DOUBLE: every value.
        case reals([Double])
        /// UNDEFINED bytes (ExifVersion's "0232", ComponentsConfiguration, SceneType).
        case bytes([UInt8])
    }

    public var directory: Directory
    public var tag: UInt16
    public var value: Value

    public init(directory: Directory, tag: UInt16, value: Value) {
        self.directory = directory
        self.tag = tag
        self.value = value
    }
}
