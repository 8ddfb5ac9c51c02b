import CaptureCore
import Foundation
import Testing
@testable import CameraSimulation

/// The sensor kernel's row, eight pixels at a time, gives exactly the codes of one pixel at a time.
@Suite struct CaptureKernelTests {
    @Test(arguments: [1, 7, 8, 61, 256])
    func aRowInVectorsMatchesPixelByPixel(width: Int) {
        // Means from darkness (exact Poisson below 30 e⁻) through mid-tones to beyond full well, and dark current.
        let constants = NoiseConstants(time: 0.02, darkMean: 0.4, fullWell: 6000, prnu: 0.01, dsnu: 1.5, read: 2.2,
                                       dnPerElectron: 0.7, black: 64, white: 4095, flashGain: 0)
        var source = RandomSource(seed: 11)
        let means: [Float] = (0..<width).map { i in
            switch i % 5 {
            case 0: 0
            case 1: Float(source.nextUniform()) * 1500      // below 30 e⁻ in 0.02 s
            case 2: 1500 + Float(source.nextUniform()) * 50_000
            case 3: 400_000 + Float(source.nextUniform()) * 200_000   // clipped at full well
            default: Float(source.nextUniform()) * 5_000
            }
        }
        let pattern: [Int8] = (0..<(2 * width)).map { _ in Int8(truncatingIfNeeded: source.next()) }
        var row = [UInt16](repeating: 0, count: width), single = row
        var vectors = NoiseStream(RandomSource(seed: 5, stream: 2)), scalars = vectors
        SmallGaussianTable.values.withUnsafeBufferPointer { gauss in
            pattern.withUnsafeBufferPointer { pattern in
                row.withUnsafeMutableBufferPointer { out in
                    CaptureKernel.exposeRow(width: width, means: means, constants: constants, gauss: gauss.baseAddress!,
                                            pattern: pattern.baseAddress!, rng: &vectors, out: out.baseAddress!)
                }
                for x in 0..<width {
                    single[x] = CaptureKernel.exposePixel(means[x], constants: constants, prnu: constants.prnu / 32,
                                                          dsnu: constants.dsnu / 32, gauss: gauss.baseAddress!,
                                                          gainDeviate: pattern[2 * x], offsetDeviate: pattern[2 * x + 1],
                                                          bits: scalars.next())
                }
            }
        }
        #expect(row == single)
        #expect(vectors.next() == scalars.next(), "both used one draw per pixel")
        #expect(row.contains(4095) || width < 4, "full well reached")
    }
}
