import CaptureCore
import Depth
import Foundation
import Testing

@Suite struct StereoRectifierTests {
    static let size = Size(width: 64, height: 48)
    static func calibration(_ focal: Double = 60, centre: SIMD2<Double> = SIMD2(32, 24), rotation: Matrix3 = .identity) -> CameraCalibration {
        CameraCalibration(focalLength: SIMD2(focal, focal), principalPoint: centre, referenceDimensions: size,
                          rotation: rotation, pixelSize: 0.001)
    }
    static func ramp(_ size: Size) -> Raster<Float> {
        var r = Raster<Float>(width: size.width, height: size.height)
        for y in 0..<size.height { for x in 0..<size.width { r[x, y] = Float(x * 7 + y * 131 % 17) } }
        return r
    }

    @Test func identicalCalibrationsGiveTheSameImage() {
        let image = Self.ramp(Self.size)
        let out = StereoRectifier.resample(image, from: Self.calibration(), into: Self.calibration())
        #expect(out == image)
    }

    @Test func aShiftedPrincipalPointShiftsByWholePixels() {
        let image = Self.ramp(Self.size)
        // The target's centre 3 px right of the source's: target pixel x sees source pixel x − 3.
        let out = StereoRectifier.resample(image, from: Self.calibration(), into: Self.calibration(centre: SIMD2(35, 22)))
        for y in 0..<46 { for x in 0..<64 {
            if x < 3 { #expect(out[x, y].isNaN) } else { #expect(out[x, y] == image[x - 3, y + 2]) }
        } }
        #expect(out[10, 47].isNaN)
    }

    /// Exact up to bilinear interpolation (the scene varies by about 0.15 per pixel).
    @Test func aRotatedCameraIsUndoneForAViewAtInfinity() {
        // A scene at infinity: brightness depends only on the ray direction (reference frame).
        func scene(_ d: SIMD3<Double>) -> Float { Float(sin(d.x / d.z * 9) + cos(d.y / d.z * 7)) }
        let angle = 0.05
        let rotation = Matrix3([[cos(angle), 0, -sin(angle)], [0, 1, 0], [sin(angle), 0, cos(angle)]])
        let source = Self.calibration(rotation: rotation), target = Self.calibration()
        var image = Raster<Float>(width: 64, height: 48)
        // Render the source camera: its ray r_s maps to the reference frame by Rᵀ.
        let inverse = rotation.inverse!
        for y in 0..<48 { for x in 0..<64 {
            let ray = SIMD3((Double(x) + 0.5 - 32) / 60, (Double(y) + 0.5 - 24) / 60, 1.0)
            image[x, y] = scene(inverse * ray)
        } }
        let out = StereoRectifier.resample(image, from: source, into: target)
        var worst: Float = 0, covered = 0
        for y in 0..<48 { for x in 0..<64 where out[x, y].isFinite {
            covered += 1
            let ray = SIMD3((Double(x) + 0.5 - 32) / 60, (Double(y) + 0.5 - 24) / 60, 1.0)
            worst = max(worst, abs(out[x, y] - scene(ray)))
        } }
        #expect(covered > 64 * 48 * 8 / 10)
        #expect(worst < 0.05, "largest difference \(worst)")
    }

    @Test func sourceDistortionIsRemoved() {
        // A barrel lens: the source image of a straight ramp is bent; resampling straightens it.
        var source = Self.calibration()
        source.lensDistortionLookupTable = (0..<16).map { Float(-0.03 * Double($0 * $0) / 225) }
        var image = Raster<Float>(width: 64, height: 48)
        let target = Self.calibration()
        // Render through the lens: the pixel at distorted point p shows the ideal point undistort(p) (found by search).
        for y in 0..<48 { for x in 0..<64 {
            let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
            var ideal = p
            for _ in 0..<30 { ideal += p - source.distort(ideal) }
            image[x, y] = Float(ideal.x)
        } }
        let out = StereoRectifier.resample(image, from: source, into: target)
        for y in 4..<44 { for x in 4..<60 where out[x, y].isFinite {
            #expect(abs(out[x, y] - Float(Double(x) + 0.5)) < 0.05)
        } }
    }
}
