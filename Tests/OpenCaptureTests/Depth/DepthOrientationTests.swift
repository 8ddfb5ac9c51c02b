import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// EXIF orientation applied to depth maps, their calibration, and portrait mattes.
@Suite struct DepthOrientationTests {
    static let all: [CGImagePropertyOrientation] = [.up, .upMirrored, .down, .downMirrored, .leftMirrored, .right, .rightMirrored, .left]

    /// A 3×2 map whose values name their pixel: 10·y + x.
    private let rows: [[Float]] = [[0, 1, 2], [10, 11, 12]]

    /// The displayed image for an orientation, written as "which stored pixel shows at (u, v)".
    private func expected(_ o: CGImagePropertyOrientation, _ src: [[Float]]) -> [[Float]] {
        let h = src.count, w = src[0].count
        let swaps = [.leftMirrored, .right, .rightMirrored, .left].contains(o)
        let outW = swaps ? h : w, outH = swaps ? w : h
        return (0..<outH).map { v in
            (0..<outW).map { u in
                switch o {
                case .up: return src[v][u]
                case .upMirrored: return src[v][w - 1 - u]
                case .down: return src[h - 1 - v][w - 1 - u]
                case .downMirrored: return src[h - 1 - v][u]
                case .leftMirrored: return src[u][v]                      // transpose
                case .right: return src[h - 1 - u][v]                     // 90° clockwise
                case .rightMirrored: return src[h - 1 - u][w - 1 - v]     // transverse
                case .left: return src[u][w - 1 - v]                      // 90° counter-clockwise
                }
            }
        }
    }

    /// Where a continuous point (x, y) of a W×H image lands.
    private func expectedPoint(_ o: CGImagePropertyOrientation, _ p: SIMD2<Double>, w: Double, h: Double) -> SIMD2<Double> {
        switch o {
        case .up: return p
        case .upMirrored: return SIMD2(w - p.x, p.y)
        case .down: return SIMD2(w - p.x, h - p.y)
        case .downMirrored: return SIMD2(p.x, h - p.y)
        case .leftMirrored: return SIMD2(p.y, p.x)
        case .right: return SIMD2(h - p.y, p.x)
        case .rightMirrored: return SIMD2(h - p.y, w - p.x)
        case .left: return SIMD2(p.y, w - p.x)
        }
    }

    private func inverse(_ o: CGImagePropertyOrientation) -> CGImagePropertyOrientation {
        switch o {
        case .right: return .left
        case .left: return .right
        default: return o
        }
    }

    /// A calibration at a reference size other than the map's, with an asymmetric pose.
    private let calibration: CameraCalibration = {
        let angle = 0.05
        let rotation = Matrix3(rowMajor: [cos(angle), -sin(angle), 0, sin(angle), cos(angle), 0, 0, 0, 1])
        return CameraCalibration(focalLength: SIMD2(250, 260), principalPoint: SIMD2(140, 95),
                                 referenceDimensions: Size(width: 300, height: 200), rotation: rotation,
                                 translation: SIMD3(0.010, 0.002, 0.0003), pixelSize: 0.012,
                                 lensDistortionLookupTable: [0, 0.001, 0.004], inverseLensDistortionLookupTable: [0, -0.001, -0.004],
                                 lensDistortionCenter: SIMD2(150, 101))
    }()

    private func depthData(_ type: OSType = kCVPixelFormatType_DisparityFloat16) throws -> AVDepthData {
        let map = DepthMap(values: Raster(width: 3, height: 2, storage: rows.flatMap { $0 }), kind: .disparity,
                           accuracy: .relative, isFiltered: true, calibration: calibration)
        return try #require(AVDepthData(depthMap: map, pixelFormat: type))
    }

    @Test(arguments: all)
    func mapAndCalibrationFollowTheOrientation(_ o: CGImagePropertyOrientation) throws {
        let oriented = try depthData().applyingExifOrientation(o)
        #expect(readBuffer(oriented.depthDataMap) == expected(o, rows))
        #expect(oriented.depthDataType == kCVPixelFormatType_DisparityFloat16)

        let c = try #require(oriented.cameraCalibrationData)
        let swaps = [.leftMirrored, .right, .rightMirrored, .left].contains(o)
        #expect(c.intrinsicMatrixReferenceDimensions == (swaps ? CGSize(width: 200, height: 300) : CGSize(width: 300, height: 200)))
        let k = c.intrinsicMatrix
        #expect(k[0][0] == (swaps ? 260 : 250) && k[1][1] == (swaps ? 250 : 260))
        let pp = expectedPoint(o, SIMD2(140, 95), w: 300, h: 200)
        #expect(k[2][0] == Float(pp.x) && k[2][1] == Float(pp.y) && k[2][2] == 1)
        let centre = expectedPoint(o, SIMD2(150, 101), w: 300, h: 200)
        #expect(c.lensDistortionCenter == CGPoint(x: centre.x, y: centre.y))
        #expect(c.pixelSize == 0.012)
        #expect(c.lensDistortionLookupTable == Data([Float(0), 0.001, 0.004].withUnsafeBufferPointer { Data(buffer: $0) }))

        // The camera still projects the same scene point to the moved pixel: a point P seen at p
        // before is seen at the oriented p after, with P expressed in the turned camera frame.
        let before = calibration, after = c.calibration
        let point = SIMD3<Double>(0.3, -0.2, 2)
        let p = SIMD2(before.focalLength.x * point.x / point.z + before.principalPoint.x,
                      before.focalLength.y * point.y / point.z + before.principalPoint.y)
        let moved = expectedPoint(o, p, w: 300, h: 200)
        // Which turned-frame point projects to `moved`: X' = (moved.x - cx') z / fx', same for y.
        let turned = SIMD2((moved.x - after.principalPoint.x) * point.z / after.focalLength.x,
                           (moved.y - after.principalPoint.y) * point.z / after.focalLength.y)
        // It must be the original point's (x, y) with axes permuted/negated: same length.
        #expect(abs((turned * turned).sum() - (point.x * point.x + point.y * point.y)) < 1e-12)
        // Rotation stays a proper rotation; translation keeps its length.
        #expect(abs(after.rotation.determinant - 1) < 1e-12)
        #expect(abs((after.translation * after.translation).sum() - (before.translation * before.translation).sum()) < 1e-18)
    }

    @Test func rotatingRightTurnsTheExtrinsicsWithTheImage() throws {
        let c = try #require(try depthData().applyingExifOrientation(.right).cameraCalibrationData)
        // x' = -y, y' = x: the translation (10, 2, 0.3) mm becomes (-2, 10, 0.3) mm.
        let t = c.extrinsicMatrix.columns.3
        #expect(abs(t.x + 2) < 1e-5 && abs(t.y - 10) < 1e-5 && abs(t.z - 0.3) < 1e-5)
        // A rotation about the optical axis is unchanged by turning the image plane.
        let before = try #require(try depthData().cameraCalibrationData).extrinsicMatrix
        for column in 0..<3 { for row in 0..<3 { #expect(abs(c.extrinsicMatrix[column][row] - before[column][row]) < 1e-6) } }
    }

    @Test(arguments: all)
    func anOrientationFollowedByItsInverseGivesBackTheOriginal(_ o: CGImagePropertyOrientation) throws {
        let original = try depthData(kCVPixelFormatType_DepthFloat32)
        let back = original.applyingExifOrientation(o).applyingExifOrientation(inverse(o))
        #expect(readBuffer(back.depthDataMap) == readBuffer(original.depthDataMap))
        #expect(back.cameraCalibrationData?.calibration == calibration)
    }

    @Test func rightThenLeftReturnsTheOriginalAndRightIsClockwise() throws {
        let data = try depthData()
        let right = data.applyingExifOrientation(.right)
        #expect(readBuffer(right.depthDataMap) == [[10, 0], [11, 1], [12, 2]])
        let back = right.applyingExifOrientation(.left)
        #expect(readBuffer(back.depthDataMap) == rows)
        #expect(back.cameraCalibrationData?.calibration == calibration)
        #expect(data.applyingExifOrientation(.up) === data)
    }

    @Test(arguments: all)
    func matteFollowsTheOrientation(_ o: CGImagePropertyOrientation) throws {
        let codes: [[Float]] = [[0, 50, 100], [150, 200, 255]]
        let buffer = try #require(makeBuffer(codes, type: kCVPixelFormatType_OneComponent8))
        let matte = try AVPortraitEffectsMatte(mattingImage: buffer)
        let oriented = matte.applyingExifOrientation(o)
        #expect(oriented.pixelFormatType == kCVPixelFormatType_OneComponent8)
        #expect(readBuffer(oriented.mattingImage) == expected(o, codes))
        #expect(readBuffer(oriented.applyingExifOrientation(inverse(o)).mattingImage) == codes)
    }
}
