import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import Testing
@testable import OpenCapture

/// `PhotoFusion.fuse(_: [AVCapturePhoto])`: brackets captured through the Apple surface, fused.
@Suite struct PhotoFusionAVCapturePhotoTests {
    /// A −4/0/+2 EV bracket of the simulated room (the window is ≥ 8 EV above the interior).
    func captureBracket() async throws -> (PhotoCaptureResult, [Raster<UInt8>]) {
        let rig = CaptureRig(preset: .medium, lighting: .indoor, seed: 11, wideColor: false)
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [-4, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        settings.isLensStabilizationEnabled = true
        let result = try await rig.capture(settings)
        let images = try result.photos.map { try JPEGDecoder.decode(try #require($0.fileDataRepresentation())) }
        return (result, images)
    }

    func clippedAndCrushed(_ image: Raster<UInt8>) -> (clipped: Int, crushed: Int) {
        var clipped = 0, crushed = 0
        for i in 0..<(image.width * image.height) {
            let r = image.storage[3 * i], g = image.storage[3 * i + 1], b = image.storage[3 * i + 2]
            if max(r, g, b) >= 250 { clipped += 1 }
            if max(r, g, b) <= 6 { crushed += 1 }
        }
        return (clipped, crushed)
    }

    @Test func fusedBracketKeepsHighlightsAndShadows() async throws {
        let (result, shots) = try await captureBracket()
        let fusion = try PhotoFusion().fuse(result.photos)
        let fused = try JPEGDecoder.decode(fusion.fusedJPEG)
        #expect(fused.width == 480 && fused.height == 360)
        let counts = shots.map(clippedAndCrushed), fusedCounts = clippedAndCrushed(fused)
        let toneMapped = clippedAndCrushed(try JPEGDecoder.decode(try #require(fusion.toneMappedJPEG)))
        let tolerance = fused.width * fused.height / 2000  // 0.05 % of the frame
        // Exposure fusion: fewer clipped pixels than the middle and bright shots, fewer crushed than the dark one.
        #expect(fusedCounts.clipped < counts[1].clipped && fusedCounts.clipped < counts[2].clipped, "\(fusedCounts) vs \(counts)")
        #expect(fusedCounts.crushed < counts[0].crushed, "\(fusedCounts) vs \(counts)")
        // HDR merge, tone-mapped: fewer clipped pixels than the middle and bright shots; against the dark
        // shot (whose sky clipped even at −4 EV is recovered from nothing else) no more than the 0.5 % the
        // tone mapper puts at white by design (`ToneMapper.whitePercentile`); no more crushed pixels than
        // the brightest shot.
        #expect(toneMapped.clipped < counts[1].clipped && toneMapped.clipped < counts[2].clipped, "\(toneMapped) vs \(counts)")
        let whiteShare = fused.width * fused.height / 200  // 1 − ToneMapper.whitePercentile (0.995)
        #expect(toneMapped.clipped <= counts[0].clipped + whiteShare, "\(toneMapped) vs \(counts)")
        #expect(toneMapped.crushed < counts[0].crushed && toneMapped.crushed < counts[1].crushed
                && toneMapped.crushed <= counts[2].crushed + tolerance, "\(toneMapped) vs \(counts)")
        #expect(fusion.exposures?.count == 3)
    }

    @Test func hdrMergeIsCloserToTheGroundTruthThanTheMiddleShot() async throws {
        let (result, shots) = try await captureBracket()
        let fusion = try PhotoFusion().fuse(result.photos)
        let hdr = try RadianceHDR.decode(try #require(fusion.radianceHDR))
        let exposures = try #require(fusion.exposures)
        let truth = try #require(result.photos[1].simulationGroundTruth())
        // Same global tone curve for all: x / (1 + x) on linear values scaled so the middle shot's white is 1.
        func tone(_ x: Double) -> Double { let v = max(x, 0); return v / (1 + v) }
        let middleLinear = ToneCurve.standard.inverseTable8
        var errorHDR = 0.0, errorMiddle = 0.0
        for i in 0..<(truth.width * truth.height * 3) {
            let reference = tone(Double(truth.linearSRGB[i]))
            errorHDR += pow(tone(Double(hdr.storage[i]) * exposures[1]) - reference, 2)
            errorMiddle += pow(tone(Double(middleLinear[Int(shots[1].storage[i])])) - reference, 2)
        }
        #expect(errorHDR < errorMiddle * 0.8, "HDR \(errorHDR) vs middle shot \(errorMiddle)")
        #expect(try #require(fusion.toneMappedJPEG).prefix(2) == Data([0xFF, 0xD8]))
    }

}
