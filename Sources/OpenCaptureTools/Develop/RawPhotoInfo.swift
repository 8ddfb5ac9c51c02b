import Foundation

/// What a developed raw file said about itself (OpenCapture addition): identity, exposure, sensor layout.
public struct RawPhotoInfo: Sendable, Equatable {
    public var make: String
    public var model: String
    /// ISO speed, 0 when unknown.
    public var iso: Double
    /// Seconds, 0 when unknown.
    public var exposureTime: Double
    /// 0 when unknown.
    public var fNumber: Double
    /// Millimetres, 0 when unknown.
    public var focalLength: Double
    public var captureDate: Date?
    /// EXIF orientation 1…8 (recorded in the output, never applied to the pixels).
    public var orientation: Int
    /// "1.4.0.0" for a DNG, nil for other raw formats.
    public var dngVersion: String?
    /// Visible mosaic size (a linear DNG's image size).
    public var sensorWidth: Int
    public var sensorHeight: Int
    /// "RGGB", "BGGR", "GRBG" or "GBRG"; "linear" for a linear DNG (camera RGB, no mosaic).
    public var cfaPattern: String
    public var bitDepth: Int
    public var blackLevel: [Double]
    public var whiteLevel: Int
    /// Camera response to white (green = 1).
    public var asShotNeutral: [Double]

    public init(make: String = "", model: String = "", iso: Double = 0, exposureTime: Double = 0, fNumber: Double = 0,
                focalLength: Double = 0, captureDate: Date? = nil, orientation: Int = 1, dngVersion: String? = nil,
                sensorWidth: Int = 0, sensorHeight: Int = 0, cfaPattern: String = "", bitDepth: Int = 0,
                blackLevel: [Double] = [], whiteLevel: Int = 0, asShotNeutral: [Double] = []) {
        self.make = make
        self.model = model
        self.iso = iso
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.focalLength = focalLength
        self.captureDate = captureDate
        self.orientation = orientation
        self.dngVersion = dngVersion
        self.sensorWidth = sensorWidth
        self.sensorHeight = sensorHeight
        self.cfaPattern = cfaPattern
        self.bitDepth = bitDepth
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.asShotNeutral = asShotNeutral
    }
}
