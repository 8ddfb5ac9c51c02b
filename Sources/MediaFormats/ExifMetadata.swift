import Foundation

/// The EXIF fields a camera writes for one photo. `nil` fields are omitted from the file.
public struct ExifMetadata: Sendable, Equatable {
    /// Camera maker (IFD0 Make); OpenCapture writes "OpenCapture".
    public var make: String?
    /// Camera model (IFD0 Model), e.g. "Simulated iPhone".
    public var model: String?
    public var software: String?
    public var lensMake: String?
    /// e.g. "Simulated back camera 3.99mm f/1.8".
    public var lensModel: String?
    /// LensSpecification (0xA432): shortest and longest focal length (mm), and the widest f-number at each — a prime
    /// lens's [f, f, N, N], as iPhones write it.
    public var lensSpecification: [Double]?
    /// Capture time: written as DateTimeOriginal, DateTimeDigitized and IFD0 DateTime in the
    /// local time of `timeZoneOffsetSeconds`, with SubSecTime* (milliseconds) and OffsetTime*.
    public var dateTimeOriginal: Date?
    /// Local zone offset from UTC for the date fields.
    public var timeZoneOffsetSeconds: Int = 0
    /// Whether the file said the offset (OffsetTimeOriginal or OffsetTime); read from one that did not, the date is
    /// its local time in this machine's zone and `timeZoneOffsetSeconds` that zone's offset. Written files carry the
    /// OffsetTime tags only when it is true (an offset nobody recorded is not made up).
    public var timeZoneOffsetRecorded = true
    /// Seconds; short exposures are written as 1/n.
    public var exposureTime: Double?
    public var fNumber: Double?
    /// PhotographicSensitivity (0x8827).
    public var iso: Int?
    /// Millimetres.
    public var focalLength: Double?
    /// Distance to the focused subject, metres (SubjectDistance 0x9206; +∞ is written as 0xFFFFFFFF/1).
    public var subjectDistance: Double?
    /// Where the camera focused, pixels: centre x, y and the area's width, height (SubjectArea 0x9214),
    /// as iPhones write it.
    public var subjectArea: [UInt16]?
    public var focalLengthIn35mmFilm: Int?
    /// EV, written as SRATIONAL.
    public var exposureBiasValue: Double?
    /// EXIF Flash bit field (0x10 off, 0x18 auto not fired, 0x19 auto fired, 0x09 on fired…).
    public var flash: UInt16?
    /// 1…8 (IFD0).
    public var orientation: Int = 1
    /// 1 = sRGB, 0xFFFF = uncalibrated (Display P3 + ICC profile).
    public var colorSpace: UInt16 = 1
    public var pixelXDimension: Int?
    public var pixelYDimension: Int?
    /// APEX brightness.
    public var brightnessValue: Double?
    public var exposureProgram: UInt16?
    public var meteringMode: UInt16?
    public var whiteBalance: UInt16?
    public var sceneCaptureType: UInt16?
    public var exposureMode: UInt16?
    public var sensingMethod: UInt16? = 2
    /// EXIF SceneType: 1 = a directly photographed image, what a camera's own photos say (iPhones write it).
    public var sceneType: UInt8?
    public var imageDescription: String?
    public var artist: String?
    public var copyright: String?
    public var userComment: String?
    /// Live Photo content identifier, written in an Apple MakerNote (tag 0x0011) as iPhones do.
    public var appleContentIdentifier: String?
    /// Optional location (GPS IFD).
    public var gps: GPSInfo? = nil

    public init() {}
}
