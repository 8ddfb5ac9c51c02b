// TEMPORARY contract stub, deleted when the real module lands.
import CaptureCore
public enum DemosaicMethod: String, Sendable, CaseIterable { case bilinear, malvarHeCutler }
public struct ISPSettings: Sendable { public var demosaic = DemosaicMethod.malvarHeCutler; public var noiseReduction = 1.0; public var outputSize: Size? = nil; public var colorSpace = ColorSpace.sRGB; public init() {} }
public struct ImageSignalProcessor: Sendable { public init(settings: ISPSettings = ISPSettings()) {}
    public func process(_ raw: RawImage) -> Raster<UInt8> { Raster<UInt8>(width: raw.width, height: raw.height, channels: 3, repeating: 128) } }
public enum RawFrameMerger { public static func merge(_ frames: [RawImage]) -> RawImage { var f = frames[0]; f.exposure.frameCount = frames.count; return f } }
public enum Resampler { public static func downscale(_ image: Raster<UInt8>, to size: Size) -> Raster<UInt8> { Raster<UInt8>(width: size.width, height: size.height, channels: 3, repeating: 128) } }
