import CameraSimulation
import CaptureCore
import Depth
import Foundation
import ImagePipeline

/// Measures depth for a photo the way the device's hardware does, and derives the portrait matte
/// from the photo and that depth.
///
/// - Dual camera (stereo): the telephoto frame is the photo and the right eye; the wide frame,
///   exposed at the same moment 1 cm to its left, is the left eye. Both are reduced to linear luma,
///   rectified from their calibrations into the telephoto's pinhole geometry at the depth size
///   (768×576), matched by semi-global matching, and disparity in pixels becomes 1/m through
///   f·B. Relative accuracy, as Apple reports for the dual camera.
/// - TrueDepth (structured light): the infrared camera's view of the projected dots is decoded
///   against the reference pattern into metres, then registered into the colour camera's view.
///   Absolute accuracy.
package enum DepthDeveloper {
    /// The second camera's readout for a depth map of `depth` size: its half-resolution luma covers
    /// the photo camera's field of view with about `depth.width` pixels (3104×2328 for 768×576: the
    /// wide sees ≈ 2.02× the telephoto's width), so rectification resamples close to 1:1 without
    /// rendering the wide camera at 12 MP.
    package static func stereoSecondaryReadout(depth: Size, primary: CameraModule, secondary: CameraModule) -> Size {
        let ratio = tan(secondary.horizontalFieldOfView / 2 * .pi / 180) / tan(primary.horizontalFieldOfView / 2 * .pi / 180)
        let width = min(secondary.nativeSize.width, (Int((Double(depth.width) * 2 * max(ratio, 1)).rounded(.up)) + 15) & ~15)
        return secondary.readoutSize(forPhoto: Size(width: width, height: width * 3 / 4))
    }

    /// Nearest distance the stereo search reaches, metres: the telephoto focuses no nearer than 0.35 m.
    static let stereoNearestDistance = 0.25

    /// Disparities searched for a pair with `focalPixels` × `baseline` (px·m): out to
    /// `stereoNearestDistance`, in steps of 8 (48 at 768 px, where f·B ≈ 12.6 px·m). A shorter search
    /// has fewer wrong minima to fall into.
    static func stereoDisparityCount(focalPixels: Double, baseline: Double) -> Int {
        max(16, (Int((focalPixels * baseline / stereoNearestDistance).rounded(.up)) + 7) & ~7)
    }

    /// The smallest pixel shift stereo reports: a quarter pixel, about what its sub-pixel fit resolves.
    static let stereoSmallestShift: Float = 0.25

    /// Uniqueness of the stereo winner: flat surfaces (a grey board, a clipped window) match every
    /// shift almost equally, and a strict ratio leaves them to the hole filling instead of a guess.
    static let stereoUniqueness: Float = 0.25

    /// A depth measurement: what the hardware measured (NaN where it could not) and what is delivered
    /// (filtered when the delivery asks for it, in the delivery's kind).
    package struct Measurement {
        /// The unfiltered measurement, with its holes; the matte segments this one, whose edges the
        /// filter has not softened.
        package var measured: DepthMap
        package var delivered: DepthMap
    }

    /// Stereo depth from the photo camera's frame (`primary`, the right eye) and the secondary frame (left eye): in
    /// the photo camera's ideal pinhole view (a distortion-corrected photo's geometry), or with `recordedGeometry` moved
    /// into what its lens recorded (an uncorrected photo's or a video frame's).
    package static func stereo(primary: RawImage, primaryModule: CameraModule, secondary: RawImage,
                               secondaryModule: CameraModule, delivery: DepthDelivery,
                               recordedGeometry: Bool) throws -> Measurement {
        let size = delivery.size
        let readout = Size(width: primary.width, height: primary.height)
        // The depth map's geometry: the photo camera's ideal pinhole at the depth size.
        let target = primaryModule.calibration(size: readout).scaled(to: size)
        let primaryLuma = Resampler.downscale(primary.halfResolutionLuma(), to: size)
        let right = StereoRectifier.resample(primaryLuma, from: primaryModule.calibration(size: readout).scaled(to: size),
                                             into: target)
        let secondaryLuma = secondary.halfResolutionLuma()
        let secondaryCalibration = secondaryModule
            .calibration(size: Size(width: secondary.width, height: secondary.height), relativeTo: primaryModule)
            .scaled(to: secondaryLuma.size)
        let left = StereoRectifier.resample(secondaryLuma, from: secondaryCalibration, into: target)
        let baseline = (secondaryCalibration.translation * secondaryCalibration.translation).sum().squareRoot()
        guard baseline > 0 else { throw DepthError.invalidParameter("the two cameras of a stereo pair share one position") }

        var parameters = StereoMatcher.Parameters()
        parameters.minDisparity = 0
        parameters.disparityCount = stereoDisparityCount(focalPixels: target.focalLength.x, baseline: baseline)
        parameters.uniqueness = stereoUniqueness
        var pixels = try StereoMatcher(parameters: parameters).match(left: left, right: right, reference: .right)
        if recordedGeometry { pixels = primaryModule.lensCorrection(size: readout).distorted(pixels) }
        // Disparity in 1/m = pixel shift / (focal length in pixels × baseline in metres). A shift below a quarter
        // pixel cannot be told from none (the sub-pixel fit's precision): it reads as that quarter pixel (≈ 50 m at
        // 768 px), so a far surface is far, not at an infinity that would swamp a depth map's stored range.
        let scale = Float(1 / (target.focalLength.x * baseline))
        pixels.storage = pixels.storage.map { $0.isNaN ? $0 : max($0, stereoSmallestShift) * scale }
        let measured = DepthMap(values: pixels, kind: .disparity, accuracy: .relative, quality: .high, isFiltered: false)
        var delivered = measured
        if delivery.filtered {
            delivered.values = try DepthFilter.filtered(pixels, guide: perceptual(right))
            delivered.isFiltered = true
        }
        return Measurement(measured: measured, delivered: delivered.converted(to: delivery.kind))
    }

    /// Structured-light depth registered to the colour camera, at the delivery's size: into its ideal pinhole view, or
    /// with `recordedGeometry` into what its lens recorded; `guide` gives the colour camera's luma at a size (0…1,
    /// perceptual) for the filter.
    package static func structuredLight(rig: TrueDepthRig, seed: UInt64, delivery: DepthDelivery, recordedGeometry: Bool,
                                        guide: (Size) -> Raster<Float>) throws -> Measurement {
        let calibration = rig.calibration
        let infrared = rig.captureInfrared(seed: seed)
        let decoded = try StructuredLightDecoder.decode(infrared: infrared, reference: rig.referenceImage(),
                                                        calibration: calibration)
        let color = recordedGeometry ? calibration.color : calibration.color.withoutLensDistortion
        var metres = DepthRegistration.register(depth: decoded, from: calibration.infrared, to: color)
        if metres.size != delivery.size { metres = Resampler.downscale(metres, to: delivery.size) }
        let measured = DepthMap(values: metres, kind: .depth, accuracy: .absolute, quality: .high, isFiltered: false)
        var delivered = measured
        if delivery.filtered {
            delivered.values = try DepthFilter.filtered(metres, guide: guide(metres.size))
            delivered.isFiltered = true
        }
        return Measurement(measured: measured, delivered: delivered.converted(to: delivery.kind))
    }

    /// The portrait effects matte at half the photo's size, from the photo and its depth; nil when
    /// no subject stands clear of the background.
    package static func matte(photo: Raster<UInt8>, depth: DepthMap, subject: SIMD2<Double>?) throws -> Raster<Float>? {
        let size = MatteDelivery.size(forPhoto: photo.size)
        let small = Resampler.downscale(photo, to: size)
        var image = Raster<Float>(width: small.width, height: small.height, channels: 3)
        image.storage = small.storage.map { Float($0) / 255 }
        return try PortraitMatteEstimator.estimate(image: image, depth: depth, subjectPoint: subject)
    }

    /// Luma of an 8-bit RGB photo at `size`, 0…1 (display-referred), for guiding depth filters.
    static func guideLuma(_ photo: Raster<UInt8>, size: Size) -> Raster<Float> {
        let small = Resampler.downscale(photo, to: size)
        var luma = [Float](repeating: 0, count: small.width * small.height)
        for i in luma.indices {
            let r = Float(small.storage[3 * i]), g = Float(small.storage[3 * i + 1]), b = Float(small.storage[3 * i + 2])
            luma[i] = (LumaWeights.rec709 * SIMD3(r, g, b)).sum() / 255
        }
        return Raster(width: small.width, height: small.height, channels: 1, storage: luma)
    }

    /// Linear luma → a perceptual scale (square root), so edges in shadows guide as strongly as in highlights.
    static func perceptual(_ linear: Raster<Float>) -> Raster<Float> {
        var out = linear
        out.storage = linear.storage.map { $0.isFinite ? max(0, $0).squareRoot() : 0 }
        return out
    }
}
