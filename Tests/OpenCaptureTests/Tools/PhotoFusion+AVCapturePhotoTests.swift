import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import Testing
@testable import OpenCapture

/// `PhotoFusion.fuse(_: [AVCapturePhoto])`: brackets captured through the Apple surface, fused.
@Suite struct PhotoFusionAVCapturePhotoTests {
    /// A −4/0/+2 EV bracket of the simulated room (the window is ≈ 6 EV above the interior).
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
        // HDR merge, tone-mapped: fewer clipped pixels than the middle and bright shots; no more crushed pixels
        // than the brightest shot. (The dark shot, locally tone-mapped by the ISP, shows the window on its own; the
        // merge of JPEGs assumes one global response, so it is not asked to beat that.)
        #expect(toneMapped.clipped < counts[1].clipped && toneMapped.clipped < counts[2].clipped, "\(toneMapped) vs \(counts)")
        #expect(toneMapped.crushed < counts[0].crushed && toneMapped.crushed < counts[1].crushed
                && toneMapped.crushed <= counts[2].crushed + tolerance, "\(toneMapped) vs \(counts)")
        #expect(fusion.exposures?.count == 3)
    }

    /// Share of the window's pixels (the truth deeper than 30 m: sky and buildings) at white in `image`.
    func clippedWindowShare(_ image: Raster<UInt8>, truth: SimulationGroundTruth) -> Double {
        var window = 0, clipped = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let t = (y * truth.height / image.height) * truth.width + x * truth.width / image.width
                guard truth.depth[t] > 30 else { continue }
                window += 1
                let i = 3 * (y * image.width + x)
                if max(image.storage[i], image.storage[i + 1], image.storage[i + 2]) >= 250 { clipped += 1 }
            }
        }
        return Double(clipped) / Double(max(window, 1))
    }

    /// Apple's usual −2/0/+2 auto-exposure bracket of a daylit room: auto exposure keeps highlight headroom, so the
    /// dark shot holds the view through the window (6–7 EV above the room) and the fused photo shows it.
    @Test(arguments: [SimulatedLighting.daylight, .indoor])
    func autoExposureBracketRecoversTheWindowView(_ lighting: SimulatedLighting) async throws {
        let rig = CaptureRig(preset: .medium, lighting: lighting, seed: 11, wideColor: false)
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        let result = try await rig.capture(settings)
        let shots = try result.photos.map { try JPEGDecoder.decode(try #require($0.fileDataRepresentation())) }
        let truth = try #require(result.photos[1].simulationGroundTruth())
        // The scene: the window's median 6–8 EV above the room's.
        var window: [Float] = [], room: [Float] = []
        for i in 0..<(truth.width * truth.height) {
            let y = 0.2126 * truth.linearSRGB[3 * i] + 0.7152 * truth.linearSRGB[3 * i + 1] + 0.0722 * truth.linearSRGB[3 * i + 2]
            if truth.depth[i] > 30 { window.append(y) } else { room.append(y) }
        }
        let contrast = log2(Double(window.sorted()[window.count / 2] / room.sorted()[room.count / 2]))
        #expect(window.count > truth.width * truth.height / 50 && contrast > 6 && contrast < 8, "window \(window.count) px, \(contrast) EV")
        let fused = try JPEGDecoder.decode(try PhotoFusion().fuse(result.photos).fusedJPEG)
        let clipped = shots.map { clippedWindowShare($0, truth: truth) }, fusedClipped = clippedWindowShare(fused, truth: truth)
        // The middle shot loses most of the view; the dark one, its raw within range thanks to auto exposure's
        // headroom and rendered with the ISP's local tone mapping, keeps it; the fused photo shows more of it than
        // the middle shot. (Mertens fusion of JPEGs takes a small window's low frequencies from the frames that expose
        // the room, so most of the view stays near white: the "fused ≤ ¼ of the middle shot's clipping"
        // needs a merge of the bracket's raw frames, not done yet.)
        #expect(clipped[1] > 0.5, "\(clipped)")
        #expect(clipped[0] < 0.05, "\(clipped)")
        #expect(fusedClipped < 0.85 * clipped[1], "fused \(fusedClipped) vs middle \(clipped[1])")
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
