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
        // HDR merge, tone-mapped: fewer clipped pixels than the middle and bright shots; no more crushed pixels than
        // the middle and brightest shots (which have none: sharpening no longer takes dark lines below black).
        #expect(toneMapped.clipped < counts[1].clipped && toneMapped.clipped < counts[2].clipped, "\(toneMapped) vs \(counts)")
        #expect(toneMapped.crushed < counts[0].crushed && toneMapped.crushed <= counts[1].crushed
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

    /// Apple's usual −2/0/+2 auto-exposure bracket of a lit room with a window (RAW + JPEG when `raw`): the photos,
    /// the JPEGs decoded, and the middle shot's ground truth. Checks the scene: the window's median 6–8 EV above the
    /// room's.
    func windowBracket(_ lighting: SimulatedLighting, raw: Bool) async throws
        -> (photos: [AVCapturePhoto], shots: [Raster<UInt8>], truth: SimulationGroundTruth) {
        let rig = CaptureRig(preset: .medium, lighting: lighting, seed: 11, wideColor: false)
        let settings = AVCapturePhotoBracketSettings(
            rawPixelFormatType: raw ? rig.output.availableRawPhotoPixelFormatTypes[0] : 0,
            processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [-2, 0, 2].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
        let photos = try await rig.capture(settings).photos
        let processed = photos.filter { !$0.isRawPhoto }
        #expect(processed.count == 3 && photos.count == (raw ? 6 : 3))
        let shots = try processed.map { try JPEGDecoder.decode(try #require($0.fileDataRepresentation())) }
        let truth = try #require(processed[1].simulationGroundTruth())
        var window: [Float] = [], room: [Float] = []
        for i in 0..<(truth.width * truth.height) {
            let y = 0.2126 * truth.linearSRGB[3 * i] + 0.7152 * truth.linearSRGB[3 * i + 1] + 0.0722 * truth.linearSRGB[3 * i + 2]
            if truth.depth[i] > 30 { window.append(y) } else { room.append(y) }
        }
        let contrast = log2(Double(window.sorted()[window.count / 2] / room.sorted()[room.count / 2]))
        #expect(window.count > truth.width * truth.height / 50 && contrast > 6 && contrast < 8, "window \(window.count) px, \(contrast) EV")
        return (photos, shots, truth)
    }

    /// The middle shot loses most of the view; the dark one, its raw within range thanks to auto exposure's headroom
    /// and rendered with the ISP's local tone mapping, keeps it. Fused from its RAW photos (merged, then developed),
    /// the bracket shows the view: at most a quarter of the middle shot's clipped window pixels.
    @Test(arguments: [SimulatedLighting.daylight, .indoor])
    func autoExposureBracketRecoversTheWindowView(_ lighting: SimulatedLighting) async throws {
        let (photos, shots, truth) = try await windowBracket(lighting, raw: true)
        let clipped = shots.map { clippedWindowShare($0, truth: truth) }
        #expect(clipped[1] > 0.5, "\(clipped)")
        #expect(clipped[0] < 0.05, "\(clipped)")
        let fusion = try PhotoFusion().fuse(photos)
        let fused = try JPEGDecoder.decode(fusion.fusedJPEG)
        let fusedClipped = clippedWindowShare(fused, truth: truth)
        #expect(fusedClipped < clipped[1] / 4, "fused \(fusedClipped) vs middle \(clipped[1])")
        #expect(fusion.mergedRaw && fusion.timings.contains { $0.step == "merge raw frames" })
        // The HDR result holds the view: its radiance in the window, brought to the middle shot's units (exposure ×
        // the ISP's brightening), follows the truth there — where the middle shot's raw saw only its clip level.
        let hdr = try RadianceHDR.decode(try #require(fusion.radianceHDR))
        let exposures = try #require(fusion.exposures)
        let toTruth = exposures[1] / pow(2, truth.baselineExposure)
        var ratios: [Double] = []
        for i in 0..<(truth.width * truth.height) where truth.depth[i] > 30 && truth.linearSRGB[3 * i + 1] > 0.05 {
            ratios.append(Double(hdr.storage[3 * i + 1]) * toTruth / Double(truth.linearSRGB[3 * i + 1]))
        }
        ratios.sort()
        let median = ratios[ratios.count / 2]
        let close = ratios.filter { abs($0 / median - 1) < 0.2 }.count
        #expect(abs(median - 1) < 0.15 && close * 10 > ratios.count * 8, "HDR/truth in the window: median \(median), \(close) of \(ratios.count) within 20 %")
        // …and so does its tone-mapped rendition (the local tone map before the global curve).
        let toneMapped = try JPEGDecoder.decode(try #require(fusion.toneMappedJPEG))
        let toneMappedClipped = clippedWindowShare(toneMapped, truth: truth)
        #expect(toneMappedClipped < clipped[1] / 4, "tone-mapped \(toneMappedClipped) vs middle \(clipped[1])")
        // The room is not given up for it: outside the window the fused photo is nearly as close to the truth's rendering as
        // the middle shot.
        let linear = Raster<Float>(width: truth.width, height: truth.height, channels: 3, storage: truth.linearSRGB)
        let reference = ImageSignalProcessor().renderReference(linear, baselineExposure: truth.baselineExposure)
        func roomError(_ image: Raster<UInt8>) -> Double {
            var sum = 0.0, count = 0
            for i in 0..<(truth.width * truth.height) where truth.depth[i] <= 30 {
                for c in 0..<3 { let d = Double(image.storage[3 * i + c]) - Double(reference.storage[3 * i + c]); sum += d * d }
                count += 3
            }
            return (sum / Double(max(count, 1))).squareRoot()
        }
        // (Bound 1.35×: the middle shot beside a RAW is demosaiced as well as any photo now, 5.3 codes RMS; the merged
        // frame, 6.1–6.6, carries no brightness bias — its extra error is texture its full noise reduction smooths.)
        #expect(roomError(fused) < roomError(shots[1]) * 1.35, "RMS outside the window: fused \(roomError(fused)), middle \(roomError(shots[1]))")
    }

    /// The same bracket as JPEGs only: exposure fusion (enfuse's weights) recovers the view as well — at most a
    /// quarter of the middle shot's clipped window pixels.
    @Test(arguments: [SimulatedLighting.daylight, .indoor])
    func jpegBracketFusionRecoversTheWindowView(_ lighting: SimulatedLighting) async throws {
        let (photos, shots, truth) = try await windowBracket(lighting, raw: false)
        let clipped = shots.map { clippedWindowShare($0, truth: truth) }
        let fusion = try PhotoFusion().fuse(photos)
        let fused = try JPEGDecoder.decode(fusion.fusedJPEG)
        let fusedClipped = clippedWindowShare(fused, truth: truth)
        #expect(clipped[0] < 0.05 && fusedClipped < clipped[1] / 4, "fused \(fusedClipped) vs \(clipped)")
        // The HDR merged from the JPEGs, tone-mapped, shows the view.
        let toneMapped = try JPEGDecoder.decode(try #require(fusion.toneMappedJPEG))
        let toneMappedClipped = clippedWindowShare(toneMapped, truth: truth)
        #expect(toneMappedClipped < clipped[1] / 4, "tone-mapped \(toneMappedClipped) vs middle \(clipped[1])")
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
