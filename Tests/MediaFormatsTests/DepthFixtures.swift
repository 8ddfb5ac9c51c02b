import CaptureCore
import Foundation
@testable import MediaFormats

/// Deterministic depth maps, calibrations and mattes shaped like an iPhone's.
enum DepthFixtures {
    /// A wide camera's calibration at 4032×3024 with a small radial distortion table and a
    /// 10 mm baseline to the reference camera.
    static func calibration() -> CameraCalibration {
        var rotation = Matrix3.identity
        rotation[0, 1] = 0.001
        rotation[1, 0] = -0.001
        return CameraCalibration(
            focalLength: SIMD2(2742.5, 2742.5), principalPoint: SIMD2(2015.25, 1511.75),
            referenceDimensions: Size(width: 4032, height: 3024), rotation: rotation,
            translation: SIMD3(-0.0101, 0.00025, 0), pixelSize: 0.0019,
            lensDistortionLookupTable: (0..<42).map { Float($0) * 0.0004 },
            inverseLensDistortionLookupTable: (0..<42).map { -Float($0) * 0.00039 },
            lensDistortionCenter: SIMD2(2016.5, 1510.0))
    }

    /// A disparity map (1/m) of a subject at ~0.7 m before a wall at ~3 m, with NaN holes when
    /// `holes` (then not filtered).
    static func disparity(width: Int = 768, height: Int = 576, holes: Bool = false) -> DepthMap {
        var values = Raster<Float>(width: width, height: height, channels: 1, repeating: 0)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                let subject = dx * dx + dy * dy < 0.06
                var v = subject ? 1.45 - 0.3 * dy : 0.33 + 0.05 * Double(x) / Double(width)
                if holes, x % 97 == 5, y % 13 < 4 { v = .nan }
                values[x, y] = Float(v)
            }
        }
        return DepthMap(values: values, kind: .disparity, accuracy: .relative, quality: .high, isFiltered: !holes,
                        calibration: calibration())
    }

    /// A soft matte: 1 inside an ellipse, 0 outside, a ramp between.
    static func matte(width: Int = 512, height: Int = 384) -> Raster<Float> {
        var m = Raster<Float>(width: width, height: height, channels: 1, repeating: 0)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2) / Double(width), dy = Double(y - height / 2) / Double(height)
                let r = (dx * dx + dy * dy).squareRoot()
                m[x, y] = Float(min(1, max(0, (0.3 - r) / 0.05)))
            }
        }
        return m
    }
}
