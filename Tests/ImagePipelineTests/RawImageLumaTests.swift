import CaptureCore
import ImagePipeline
import Testing

@Suite struct RawImageLumaTests {
    @Test(arguments: CFAPattern.allCases)
    func neutralGreyGivesItsLevelForEveryLayout(_ cfa: CFAPattern) {
        // A neutral grey at 0.3 of the white level: white balance makes every quad read 0.3.
        let grey = Raster<Float>(width: 8, height: 6, channels: 3, repeating: 0.3)
        let luma = Fixtures.raw(from: grey, cfa: cfa, matrix: .identity).halfResolutionLuma()
        #expect(luma.width == 4 && luma.height == 3)
        for v in luma.storage { #expect(abs(v - 0.3) < 0.001) }
    }

    @Test func weighsGreenHalfAndRedBlueAQuarter() {
        // Pure red at 0.8 in white-balanced camera RGB → luma 0.2.
        var red = Raster<Float>(width: 4, height: 4, channels: 3)
        for y in 0..<4 { for x in 0..<4 { red[x, y, 0] = 0.8 } }
        let luma = Fixtures.raw(from: red, matrix: .identity).halfResolutionLuma()
        for v in luma.storage { #expect(abs(v - 0.2) < 0.001) }
    }
}
