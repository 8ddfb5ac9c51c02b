import Testing
@testable import CaptureCore

@Suite struct ColorSpaceTests {
    static func close(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double) -> Bool {
        abs(a.x - b.x) < tolerance && abs(a.y - b.y) < tolerance && abs(a.z - b.z) < tolerance
    }

    @Test func whiteMapsToD65() {
        // The sRGB matrix (Lindbloom's) uses D65 as ASTM E308 tabulates it; the Display P3 matrix
        // derives D65 from its chromaticity x = 0.3127, y = 0.3290. The two differ by 2e-4 in Z.
        let astmD65 = SIMD3(0.95047, 1, 1.08883)
        let xyD65 = SIMD3(0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290)
        #expect(Self.close(ColorSpace.sRGB.toXYZ * SIMD3(1, 1, 1), astmD65, 1e-5))
        #expect(Self.close(ColorSpace.displayP3.toXYZ * SIMD3(1, 1, 1), xyD65, 1e-5))
        for space in ColorSpace.allCases {
            #expect(Self.close(space.fromXYZ * (space.toXYZ * SIMD3(1, 1, 1)), SIMD3(1, 1, 1), 1e-12))
        }
    }

    @Test func primariesHaveTheirChromaticities() {
        func xy(_ v: SIMD3<Double>) -> (Double, Double) { (v.x / (v.x + v.y + v.z), v.y / (v.x + v.y + v.z)) }
        let expected: [ColorSpace: [(Double, Double)]] = [
            .sRGB: [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)],          // IEC 61966-2-1 / BT.709
            .displayP3: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], // DCI-P3 primaries, D65
        ]
        for (space, primaries) in expected {
            for (i, (x, y)) in primaries.enumerated() {
                var rgb = SIMD3<Double>(0, 0, 0); rgb[i] = 1
                let c = xy(space.toXYZ * rgb)
                #expect(abs(c.0 - x) < 1e-3 && abs(c.1 - y) < 1e-3, "\(space) primary \(i): \(c)")
            }
        }
    }

    @Test func sRGBAndP3ConvertBothWays() {
        let toP3 = ColorSpace.displayP3.conversion(from: .sRGB)
        let toSRGB = ColorSpace.sRGB.conversion(from: .displayP3)
        // sRGB red is inside P3: (0.8225, 0.0332, 0.0171); P3 red is outside sRGB.
        #expect(Self.close(toP3 * SIMD3(1, 0, 0), SIMD3(0.8225, 0.0332, 0.0171), 5e-4))
        #expect(Self.close(toSRGB * SIMD3(1, 0, 0), SIMD3(1.2249, -0.0420, -0.0196), 5e-4))
        // White stays white to within the two matrices' different D65 (under 0.1 of an 8-bit code).
        #expect(Self.close(toP3 * SIMD3(1, 1, 1), SIMD3(1, 1, 1), 3e-4))
        #expect(Matrix3Tests.isIdentity(toP3 * toSRGB, tolerance: 1e-12))
        #expect(Matrix3Tests.isIdentity(ColorSpace.sRGB.conversion(from: .sRGB), tolerance: 1e-12))
    }

    /// 8-bit images re-encoded between spaces: greys stay, in-gamut colours go there and back within two levels (the
    /// 8-bit steps between), and P3's pure green (outside sRGB) clips to sRGB's.
    @Test func convertingEightBitImages() {
        let colours: [UInt8] = [128, 128, 128, 200, 100, 50, 30, 160, 220, 255, 255, 255]
        let image = Raster<UInt8>(width: 4, height: 1, channels: 3, storage: colours)
        let p3 = ColorSpace.displayP3.converting(image, from: .sRGB)
        #expect(Array(p3.storage[0..<3]) == [128, 128, 128] && Array(p3.storage[9..<12]) == [255, 255, 255])
        #expect(p3.storage != image.storage, "the colours moved")
        let back = ColorSpace.sRGB.converting(p3, from: .displayP3)
        #expect(zip(back.storage, colours).allSatisfy { abs(Int($0) - Int($1)) <= 2 }, "\(back.storage)")
        let green = Raster<UInt8>(width: 1, height: 1, channels: 3, storage: [0, 255, 0])
        #expect(ColorSpace.sRGB.converting(green, from: .displayP3).storage == [0, 255, 0])
        #expect(ColorSpace.sRGB.converting(image, from: .sRGB).storage == colours)
    }
}
