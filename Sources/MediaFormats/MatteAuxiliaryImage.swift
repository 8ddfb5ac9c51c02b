import CaptureCore

/// A portrait effects matte to embed in a HEIC (auxiliary image) or JPEG (MPF secondary image):
/// coverage 0…1 (1 = person) stored as 8-bit codes round(255 × value) ('L008'), with Apple's
/// matte XMP (`apdi:AuxiliaryImageSubType` portraiteffectsmatte, PortraitEffectsMatteVersion 65537).
public struct MatteAuxiliaryImage: Sendable {
    /// One channel, 0…1; values outside are clamped and NaN is stored as 0.
    public var matte: Raster<Float>

    public init(matte: Raster<Float>) {
        self.matte = matte
    }

    /// The XMP an iPhone writes for its matte (as third-party portrait converters reproduce it:
    /// AuxiliaryImageType "depth", SubType "portraiteffectsmatte", Native and Stored format 'L008').
    public static var metadata: AuxiliaryImageMetadata {
        AuxiliaryImageMetadata(auxiliaryImageType: "depth", auxiliaryImageSubType: "portraiteffectsmatte",
                               storedFormat: .oneComponent8, nativeFormat: .oneComponent8,
                               portraitEffectsMatteVersion: DepthXMP.portraitEffectsMatteVersion)
    }

    /// The stored codes. Throws `.invalidImage` for an empty matte or one with more than one channel.
    public func encoded() throws -> Raster<UInt8> {
        guard matte.width > 0, matte.height > 0, matte.channels == 1 else {
            throw MediaFormatError.invalidImage("a matte must be one channel and not empty (\(matte.width)×\(matte.height)×\(matte.channels))")
        }
        return Raster(width: matte.width, height: matte.height, channels: 1,
                      storage: matte.storage.map { $0.isFinite ? UInt8((min(1, max(0, $0)) * 255).rounded()) : 0 })
    }

    /// The matte (0…1) from stored codes (the first channel of each pixel).
    public static func decoded(codes: Raster<UInt8>) -> Raster<Float> {
        Raster(width: codes.width, height: codes.height, channels: 1,
               storage: stride(from: 0, to: codes.storage.count, by: codes.channels).map { Float(codes.storage[$0]) / 255 })
    }
}
