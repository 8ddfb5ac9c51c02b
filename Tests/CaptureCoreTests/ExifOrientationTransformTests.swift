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

    /// A bi-planar 4:2:0 buffer turns plane by plane: luma by bytes, chroma by Cb/Cr pairs, each to where the point
    /// transform of its own plane puts it; attachments come along.
    @Test(arguments: 1...8)
    func planarBuffersTurnPlaneByPlane(orientation: Int) throws {
        let buffer = try #require(PixelBuffer(width: 4, height: 2, pixelFormat: .yuv420BiPlanarFullRange))
        let y = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        let c = try #require(buffer.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
        for row in 0..<2 { for x in 0..<4 { y[row * buffer.planes[0].bytesPerRow + x] = UInt8(10 * row + x) } }
        c[0] = 1; c[1] = 2; c[2] = 3; c[3] = 4   // two Cb/Cr pairs on one chroma row
        buffer.attachments["k"] = "v"
        let transform = ExifOrientationTransform(exifOrientation: orientation, size: Size(width: 4, height: 2))
        let turned = try #require(transform.apply(buffer))
        #expect(turned.width == transform.destinationSize.width && turned.height == transform.destinationSize.height)
        #expect(turned.attachments["k"] == "v")
        let ty = try #require(turned.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        let tc = try #require(turned.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
        for row in 0..<2 {
            for x in 0..<4 {
                let p = transform.apply(SIMD2(Double(x) + 0.5, Double(row) + 0.5))
                #expect(ty[Int(p.y) * turned.planes[0].bytesPerRow + Int(p.x)] == UInt8(10 * row + x))
            }
        }
        let chroma = ExifOrientationTransform(exifOrientation: orientation, size: Size(width: 2, height: 1))
        for pair in 0..<2 {
            let p = chroma.apply(SIMD2(Double(pair) + 0.5, 0.5))
            let at = Int(p.y) * turned.planes[1].bytesPerRow + 2 * Int(p.x)
            #expect(tc[at] == UInt8(2 * pair + 1) && tc[at + 1] == UInt8(2 * pair + 2), "pairs stay Cb, Cr")
        }
        withExtendedLifetime(turned) {}
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
