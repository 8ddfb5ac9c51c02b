// TEMPORARY contract stub, deleted when the real module lands.
import CaptureCore
import Foundation
public struct ExifMetadata: Sendable, Equatable {
    public var make: String?; public var model: String?; public var software: String?; public var lensMake: String?; public var lensModel: String?
    public var dateTimeOriginal: Date?; public var timeZoneOffsetSeconds = 0; public var exposureTime: Double?; public var fNumber: Double?
    public var iso: Int?; public var focalLength: Double?; public var focalLengthIn35mmFilm: Int?; public var exposureBiasValue: Double?
    public var flash: UInt16?; public var orientation = 1; public var colorSpace: UInt16 = 1; public var pixelXDimension: Int?; public var pixelYDimension: Int?
    public var brightnessValue: Double?; public var exposureProgram: UInt16?; public var meteringMode: UInt16?; public var whiteBalance: UInt16?
    public var sceneCaptureType: UInt16?; public var exposureMode: UInt16?; public var sensingMethod: UInt16? = 2
    public var imageDescription: String?; public var artist: String?; public var copyright: String?; public var userComment: String?
    public init() {}
}
public enum JPEGEncoder { public static func encode(_ image: Raster<UInt8>, quality: Int = 90, exif: ExifMetadata? = nil, thumbnailJPEG: Data? = nil, iccProfile: Data? = nil) throws -> Data { Data([0xFF, 0xD8, 0xFF, 0xD9]) } }
