import CaptureCore
import Depth
import Foundation
import MediaFormats

/// OpenCapture addition: renders a synthetic shallow depth of field from any JPEG or HEIC photo
/// that carries depth (OpenCapture's own, or an iPhone's portrait HEIC), as Portrait mode does
/// after the shot: disc bokeh of a full-frame lens of `aperture` at the photo's 35 mm-equivalent
/// focal length, computed on linear light, with no halos at depth edges.
public struct PortraitRendering: Sendable {
    /// f-number of the simulated lens (default 2.8, Apple's default `SimulatedAperture`).
    public var aperture = 2.8
    /// Where to focus, metres; nil focuses on the subject at the centre.
    public var focusDistance: Double?
    /// JPEG quality of the result, 0…1.
    public var jpegQuality = 0.92

    public init() {}

    /// The rendered photo as a JPEG with the original's EXIF and colour space.
    public func render(photo data: Data) throws -> Data {
        guard aperture.isFinite, aperture >= PortraitRenderer.widestAperture else {
            throw PortraitRenderingError.invalidParameter(
                "--aperture \(aperture) must be an f-number of at least \(PortraitRenderer.widestAperture) (phones offer f/1.4 to f/16)")
        }
        if let focusDistance, !(focusDistance.isFinite && focusDistance >= PortraitRenderer.nearestFocus) {
            throw PortraitRenderingError.invalidParameter(
                "--focus-distance \(focusDistance) must be at least \(PortraitRenderer.nearestFocus) m")
        }
        let pixels: Raster<UInt8>
        var exif = ExifMetadata()
        let space: ColorSpace
        switch FileKind.of(data) {
        case .jpeg?:
            pixels = try JPEGDecoder.decode(data)
            if let read = try? ExifReader.read(jpeg: data) { exif = read }
            space = ColorSpace.declared(iccProfile: try? JPEGSegments.iccProfile(in: data))
        case .heif?:
            // As coded, like the depth map beside it; the EXIF orientation (kept) tells viewers how to turn both.
            pixels = try HEIFDecoder.decode(data, applyingTransformations: false)
            let structure = try? HEIFStructure.parse(data)
            if let block = structure?.exif, let read = try? ExifReader.read(jpeg: block) { exif = read }
            space = ColorSpace.declared(iccProfile: structure?.iccProfile, codingPrimaries: structure?.colorPrimaries)
        default:
            throw PortraitRenderingError.unsupportedFile(FileKind.of(data)?.rawValue ?? "unknown data")
        }
        guard let depth = try EmbeddedDepthReader.read(data).depth else { throw PortraitRenderingError.noDepth }

        var linear = Raster<Float>(width: pixels.width, height: pixels.height, channels: 3)
        let table = SRGBTransfer.decodeTable8
        linear.storage = pixels.storage.map { table[Int($0)] }
        let rendered = try PortraitRenderer.render(image: linear, depth: depth, aperture: aperture,
                                                   focalLength35mmEquivalent: focalLength35(exif: exif, depth: depth,
                                                                                            size: pixels.size),
                                                   focusDisparity: focusDistance.map { Float(1 / $0) })
        var out = Raster<UInt8>(width: pixels.width, height: pixels.height, channels: 3)
        out.storage = rendered.storage.map { UInt8((SRGBTransfer.encode($0) * 255).rounded()) }
        exif.colorSpace = ExifMetadata.colorSpaceTag(for: space)
        exif.pixelXDimension = out.width
        exif.pixelYDimension = out.height
        return try JPEGEncoder.encode(out, quality: max(1, min(100, Int((jpegQuality * 100).rounded()))), exif: exif,
                                      iccProfile: ICCProfile.data(for: space))
    }

    /// The photo's 35 mm-equivalent focal length: from EXIF, else from the depth's calibration
    /// (the focal length in pixels over the diagonal, scaled to the 43.3 mm full-frame diagonal), else 28 mm.
    func focalLength35(exif: ExifMetadata, depth: DepthMap, size: Size) -> Double {
        if let value = exif.focalLengthIn35mmFilm, value > 0 { return Double(value) }
        if let calibration = depth.calibration, calibration.referenceDimensions.width > 0 {
            let w = Double(calibration.referenceDimensions.width), h = Double(calibration.referenceDimensions.height)
            return calibration.focalLength.x / (w * w + h * h).squareRoot() * 43.27
        }
        return 28
    }
}
