import Foundation

/// What LibRaw reports about a camera raw or DNG file besides the mosaic.
public struct RawFileInfo: Sendable, Equatable {
    public var make: String
    public var model: String
    /// Visible (cropped) size of the mosaic.
    public var width: Int
    public var height: Int
    /// Size of the stored mosaic including masked borders.
    public var rawWidth: Int
    public var rawHeight: Int
    public var iso: Double
    /// Seconds.
    public var exposureTime: Double
    public var fNumber: Double
    /// Millimetres.
    public var focalLength: Double
    public var timestamp: Date?
    /// DNGVersion as four bytes (e.g. 0x01040000), nil for other raw formats.
    public var dngVersion: UInt32?
    /// As-shot white-balance multipliers (LibRaw's cam_mul), green = 1.
    public var asShotMultipliers: SIMD3<Double>
    /// EXIF orientation 1…8 from LibRaw's flip.
    public var orientation: Int
    /// The EXIF the file's TIFF structure holds (IFD0 and its EXIF IFD), nil for raws not built on TIFF or when it
    /// cannot be read.
    public var exif: ExifMetadata?

    public init(make: String, model: String, width: Int, height: Int, rawWidth: Int, rawHeight: Int,
                iso: Double, exposureTime: Double, fNumber: Double, focalLength: Double, timestamp: Date?,
                dngVersion: UInt32?, asShotMultipliers: SIMD3<Double>, orientation: Int, exif: ExifMetadata? = nil) {
        self.exif = exif
        self.make = make
        self.model = model
        self.width = width
        self.height = height
        self.rawWidth = rawWidth
        self.rawHeight = rawHeight
        self.iso = iso
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.focalLength = focalLength
        self.timestamp = timestamp
        self.dngVersion = dngVersion
        self.asShotMultipliers = asShotMultipliers
        self.orientation = orientation
    }
}
