import CaptureCore
import Testing
@testable import ImagePipeline

@Suite struct DemosaicTests {
    @Test func malvarBeatsBilinearOnColorfulImage() {
        let truth = Fixtures.zonePlate(width: 96, height: 80)
        let mosaic = Demosaic.mosaic(truth, cfa: .rggb)
        let bilinear = Demosaic.demosaic(mosaic, cfa: .rggb, method: .bilinear)
        let mhc = Demosaic.demosaic(mosaic, cfa: .rggb, method: .malvarHeCutler)
        let pb = ImageQuality.psnr(bilinear, truth, border: 4)
        let pm = ImageQuality.psnr(mhc, truth, border: 4)
        #expect(pm > pb + 3, "MHC \(pm) dB vs bilinear \(pb) dB")
        #expect(pb > 20)
        let ed = Demosaic.demosaic(mosaic, cfa: .rggb, method: .edgeDirected)
        let pe = ImageQuality.psnr(ed, truth, border: 4)
        #expect(pe > pm + 1, "edge-directed \(pe) dB vs MHC \(pm) dB")
    }

    @Test func edgeDirectedFollowsAnEdgeWithoutZipper() {
        // A sharp vertical edge in luminance: the directional method interpolates along it.
        var truth = Fixtures.flat(width: 32, height: 16, SIMD3(0.1, 0.1, 0.1))
        for y in 0..<16 { for x in 15..<32 { for c in 0..<3 { truth[x, y, c] = 0.8 } } }
        let mosaic = Demosaic.mosaic(truth, cfa: .rggb)
        let ed = Demosaic.demosaic(mosaic, cfa: .rggb, method: .edgeDirected)
        let mhc = Demosaic.demosaic(mosaic, cfa: .rggb, method: .malvarHeCutler)
        #expect(ImageQuality.psnr(ed, truth, border: 2) > ImageQuality.psnr(mhc, truth, border: 2) + 3)
        for y in 2..<14 { for x in [13, 18] { #expect(abs(ed[x, y, 1] - truth[x, y, 1]) < 1e-4) } }
    }

    @Test(arguments: CFAPattern.allCases, DemosaicMethod.allCases)
    func flatColorIsReproduced(cfa: CFAPattern, method: DemosaicMethod) {
        let truth = Fixtures.flat(width: 17, height: 12, SIMD3(0.2, 0.55, 0.8))
        let out = Demosaic.demosaic(Demosaic.mosaic(truth, cfa: cfa), cfa: cfa, method: method)
        for i in 0..<truth.storage.count { #expect(abs(out.storage[i] - truth.storage[i]) < 1e-5) }
    }

    @Test func mosaicSamplesTheFilterColour() {
        let truth = Fixtures.colorful(width: 4, height: 4)
        let m = Demosaic.mosaic(truth, cfa: .gbrg)
        #expect(m[0, 0] == truth[0, 0, 1])
        #expect(m[1, 0] == truth[1, 0, 2])
        #expect(m[0, 1] == truth[0, 1, 0])
    }

    @Test func roundTripKeepsFlat8BitColor() {
        let rgb = Raster<UInt8>(width: 16, height: 16, channels: 3,
                                storage: (0..<(16 * 16)).flatMap { _ in [UInt8(200), 100, 30] })
        for method in DemosaicMethod.allCases {
            let out = Demosaic.roundTrip(rgb, cfa: .rggb, method: method)
            #expect(out == rgb)
            #expect(ImageQuality.cpsnr(out, rgb, border: 0) == .infinity)
        }
    }

    @Test func residualInterpolationBeatsEdgeDirectedOnZonePlate() {
        let truth = Fixtures.zonePlate(width: 96, height: 80)
        let mosaic = Demosaic.mosaic(truth, cfa: .rggb)
        let ed = ImageQuality.psnr(Demosaic.demosaic(mosaic, cfa: .rggb, method: .edgeDirected), truth, border: 4)
        let ri = ImageQuality.psnr(Demosaic.demosaic(mosaic, cfa: .rggb, method: .residualInterpolation), truth, border: 4)
        #expect(ri > ed + 0.5, "residual interpolation \(ri) dB vs edge-directed \(ed) dB")
    }

    @Test(arguments: CFAPattern.allCases)
    func residualInterpolationKeepsEveryRecordedSample(cfa: CFAPattern) {
        // Own-colour sites are never re-estimated, and all four layouts reconstruct alike.
        let truth = Fixtures.colorful(width: 40, height: 30, frequency: 0.3)
        let mosaic = Demosaic.mosaic(truth, cfa: cfa)
        let out = Demosaic.demosaic(mosaic, cfa: cfa, method: .residualInterpolation)
        for y in 0..<30 { for x in 0..<40 { #expect(out[x, y, cfa.color(x: x, y: y)] == mosaic[x, y]) } }
        let reference = Demosaic.demosaic(Demosaic.mosaic(truth, cfa: .rggb), cfa: .rggb, method: .residualInterpolation)
        #expect(abs(ImageQuality.psnr(out, truth, border: 4) - ImageQuality.psnr(reference, truth, border: 4)) < 1.5)
    }
}
