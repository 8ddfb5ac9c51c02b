import Testing
@testable import CaptureCore

/// `ExifOrientationTransform` on rasters: every pixel (all its channels) lands where the point transform puts its centre.
@Suite struct ExifOrientationTransformTests {
    @Test(arguments: 1...8)
    func pixelsLandWhereTheirCentresGo(orientation: Int) {
        let width = 5, height = 3, channels = 2
        let image = Raster<Float>(width: width, height: height, channels: channels,
                                  storage: (0..<(width * height * channels)).map(Float.init))
        let transform = ExifOrientationTransform(exifOrientation: orientation, size: Size(width: width, height: height))
        let turned = transform.apply(image)
        #expect(turned.size == transform.destinationSize)
        #expect(transform.swapsAxes == (orientation >= 5))
        for y in 0..<height {
            for x in 0..<width {
                let centre = transform.apply(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                let u = Int(centre.x - 0.5), v = Int(centre.y - 0.5)
                for c in 0..<channels { #expect(turned[u, v, c] == image[x, y, c]) }
            }
        }
    }

    @Test func sixTurnsClockwiseAndEightCounterClockwise() {
        // A 2 × 1 image [a b]: turned clockwise it is a over b; counter-clockwise b over a.
        let image = Raster<Float>(width: 2, height: 1, channels: 1, storage: [1, 2])
        #expect(ExifOrientationTransform(exifOrientation: 6, size: Size(width: 2, height: 1)).apply(image).storage == [1, 2])
        #expect(ExifOrientationTransform(exifOrientation: 8, size: Size(width: 2, height: 1)).apply(image).storage == [2, 1])
        #expect(ExifOrientationTransform(exifOrientation: 3, size: Size(width: 2, height: 1)).apply(image).storage == [2, 1])
        // Anything but 1…8 is "up".
        #expect(ExifOrientationTransform(exifOrientation: 0, size: Size(width: 2, height: 1)).isIdentity)
    }
}
