import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

@Suite struct BracketTests {
    func autoBracket(_ biases: [Float], format: [String: Any]? = nil) -> AVCapturePhotoBracketSettings {
        let makeAutoExposureSettings = AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias:)
        return AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: format ?? [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                             bracketedSettings: biases.map(makeAutoExposureSettings))
    }

    @Test func autoBracketDeliversEachShotInOrderWithPhysicalExposures() async throws {
        let rig = CaptureRig()
        let settings = autoBracket([-2, 0, 2], format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        settings.isLensStabilizationEnabled = rig.output.isLensStabilizationDuringBracketedCaptureSupported
        let delegate = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: settings, delegate: delegate)
        await delegate.waitUntilFinished()

        #expect(delegate.events == [.willBegin, .willCapture, .didCapture, .didFinishProcessing, .didFinishProcessing,
                                    .didFinishProcessing, .didFinishCapture])
        let resolved = try #require(delegate.resolvedObjects.first)
        #expect(resolved.expectedPhotoCount == 3)
        #expect(!resolved.isFlashEnabled && !resolved.isStillImageStabilizationEnabled)
        let photos = delegate.photos
        #expect(photos.map(\.photoCount) == [1, 2, 3])
        #expect(photos.map(\.sequenceCount) == [1, 2, 3])
        for (photo, entry) in zip(photos, settings.bracketedSettings) {
            #expect(photo.bracketSettings === entry)
            #expect(photo.lensStabilizationStatus == .active)
        }
        // EXIF records each bias; duration × ISO quadruples per +2 EV.
        let exposures = try photos.map { photo -> (Double, Double, Double) in
            let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
            return (exif["ExposureBiasValue"] as? Double ?? .nan, exif["ExposureTime"] as? Double ?? 0,
                    Double((exif["ISOSpeedRatings"] as? [Int])?.first ?? 0))
        }
        #expect(exposures.map(\.0) == [-2, 0, 2])
        // EXIF says how they were exposed: the normal program, auto bracket. The scene's APEX brightness is one for the
        // three (it is the scene's, not the shot's), and a living room's: EV100 5–10 (Bv = EV100 − 5).
        var apex: [Double] = []
        for photo in photos {
            let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
            #expect(exif["ExposureProgram"] as? Int == 2 && exif["ExposureMode"] as? Int == 2)
            apex.append(try #require(exif["BrightnessValue"] as? Double))
        }
        #expect(Set(apex).count == 1 && apex[0] > 0 && apex[0] < 5, "\(apex)")
        let light = exposures.map { $0.1 * $0.2 }
        #expect(abs(light[1] / light[0] - 4) < 0.3 && abs(light[2] / light[1] - 4) < 0.3, "\(light)")
        // The sensor really collected that light: the ground truth (1.0 = saturation) scales by the same factor.
        let medians = try photos.map { photo -> Double in
            let truth = try #require(photo.simulationGroundTruth())
            let greens = stride(from: 1, to: truth.linearSRGB.count, by: 3).map { Double(truth.linearSRGB[$0]) }.sorted()
            return greens[greens.count / 2]
        }
        #expect(abs(medians[1] / medians[0] - 4) < 0.4 && abs(medians[2] / medians[1] - 4) < 0.4, "\(medians)")
        let brightness = try photos.map { meanGreen(try #require($0.pixelBuffer)) }
        #expect(brightness[0] < brightness[1] && brightness[1] < brightness[2], "\(brightness)")
        // Back to back, in order, with at least the exposure between shot starts.
        let stamps = photos.map(\.timestamp.seconds)
        #expect(stamps[1] - stamps[0] >= exposures[0].1 * 0.9 && stamps[2] - stamps[1] >= exposures[1].1 * 0.9, "\(stamps)")
    }

    @Test func manualBracketUsesExactDurationAndISO() async throws {
        let rig = CaptureRig()
        let entries = [(CMTime(value: 1, timescale: 1000), Float(100)), (CMTime(value: 1, timescale: 250), 100), (CMTime(value: 1, timescale: 250), 400)]
            .map { AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: $0.0, iso: $0.1) }
        let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: entries)
        let result = try await rig.capture(settings)
        #expect(result.photos.count == 3)
        for (photo, entry) in zip(result.photos, entries) {
            let exif = try #require(photo.metadata["{Exif}"] as? [String: Any])
            #expect(abs((exif["ExposureTime"] as? Double ?? 0) - entry.exposureDuration.seconds) < 1e-9)
            #expect((exif["ISOSpeedRatings"] as? [Int])?.first == Int(entry.iso))
            #expect(photo.lensStabilizationStatus == .off)
            let file = try #require(photo.fileDataRepresentation())
            #expect(file.prefix(2) == Data([0xFF, 0xD8]))
            // The file says manual (the device itself is in continuous auto exposure).
            let written = try ExifReader.read(jpeg: file)
            #expect(written.exposureProgram == 1 && written.exposureMode == 1)
        }
        // The sentinels take the device's current values.
        try rig.device.lockForConfiguration()
        rig.device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 500), iso: 200)
        rig.device.unlockForConfiguration()
        let current = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [
            AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: AVCaptureExposureDurationCurrent, iso: AVCaptureISOCurrent),
        ])
        let exif = try #require(try await rig.capture(current).photos[0].metadata["{Exif}"] as? [String: Any])
        #expect(abs((exif["ExposureTime"] as? Double ?? 0) - 0.002) < 1e-9)
        #expect((exif["ISOSpeedRatings"] as? [Int]) == [200])
    }

    @Test func handShakeBlurGrowsWithDurationAndLensStabilizationReducesIt() async throws {
        func sharpness(duration: CMTime, stabilized: Bool) async throws -> Double {
            let rig = CaptureRig(preset: .vga640x480, lighting: .daylight, seed: 3)
            let settings = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [
                AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: duration, iso: 25),
            ])
            settings.isLensStabilizationEnabled = stabilized
            let truth = try #require(try await rig.capture(settings).photos[0].simulationGroundTruth())
            // Mean squared horizontal + vertical gradient of the noise-free green, normalised by its mean.
            var energy = 0.0, mean = 0.0
            for y in 0..<(truth.height - 1) {
                for x in 0..<(truth.width - 1) {
                    let g = Double(min(truth.linearSRGB[3 * (y * truth.width + x) + 1], 1))
                    let gx = Double(min(truth.linearSRGB[3 * (y * truth.width + x + 1) + 1], 1)) - g
                    let gy = Double(min(truth.linearSRGB[3 * ((y + 1) * truth.width + x) + 1], 1)) - g
                    energy += gx * gx + gy * gy
                    mean += g
                }
            }
            return energy / (mean * mean) * Double(truth.width * truth.height)
        }
        let short = try await sharpness(duration: CMTime(value: 1, timescale: 2000), stabilized: false)
        let long = try await sharpness(duration: CMTime(value: 1, timescale: 4), stabilized: false)
        let longStabilized = try await sharpness(duration: CMTime(value: 1, timescale: 4), stabilized: true)
        #expect(long < short * 0.8, "1/4 s \(long) vs 1/2000 s \(short)")
        #expect(longStabilized > long, "stabilised \(longStabilized) vs unstabilised \(long)")
    }

    @Test func bracketRulesAreEnforcedAndTheOutputKeepsWorking() async throws {
        let rig = CaptureRig()
        func refused(_ settings: AVCapturePhotoSettings, _ expected: PhotoSettingsError) async {
            #expect(throws: expected) { try rig.output.validate(settings) }
            let delegate = RecordingDelegate(output: rig.output)
            rig.output.capturePhoto(with: settings, delegate: delegate)
            await delegate.waitUntilFinished()
            #expect(delegate.events == [.didFinishCapture])
            #expect(delegate.errors.first as? PhotoSettingsError == expected)
        }
        await refused(autoBracket([]), .bracketIsEmpty)
        let mixed = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [
            AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0),
            AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: CMTime(value: 1, timescale: 100), iso: 100),
        ])
        await refused(mixed, .bracketMixesSettingsTypes)
        let maximum = rig.output.maxBracketedCapturePhotoCount
        #expect(maximum == 8)
        await refused(autoBracket(Array(repeating: 0, count: maximum + 1)), .bracketTooLarge(count: maximum + 1, maximum: maximum))
        await refused(autoBracket([0, 9]), .bracketBiasOutOfRange(9))
        let iso = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [
            AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: CMTime(value: 1, timescale: 100), iso: 10_000),
        ])
        await refused(iso, .bracketISOOutOfRange(10_000))
        let duration = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [
            AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(exposureDuration: CMTime(value: 5, timescale: 1), iso: 100),
        ])
        await refused(duration, .bracketDurationOutOfRange(5))
        let flash = autoBracket([0])
        flash.flashMode = .on
        await refused(flash, .bracketUnsupportedFeature("flashMode"))
        let stabilized = autoBracket([0])
        stabilized.isAutoStillImageStabilizationEnabled = true
        await refused(stabilized, .bracketUnsupportedFeature("autoStillImageStabilizationEnabled"))
        let live = autoBracket([0])
        live.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/live.mov")
        await refused(live, .bracketUnsupportedFeature("livePhotoMovieFileURL"))

        let tele = CaptureRig(.builtInTelephotoCamera)
        #expect(!tele.output.isLensStabilizationDuringBracketedCaptureSupported)
        let lens = autoBracket([0])
        lens.isLensStabilizationEnabled = true
        #expect(throws: PhotoSettingsError.lensStabilizationNotSupported) { try tele.output.validate(lens) }

        let result = try await rig.capture(autoBracket([-1, 1]))
        #expect(result.photos.count == 2)
    }

    @Test func bracketLimitFollowsTheFormat() {
        let photo = CaptureRig(preset: .photo), low = CaptureRig(preset: .low)
        withExtendedLifetime((photo, low)) {
            #expect(photo.output.maxBracketedCapturePhotoCount == 4)
            #expect(low.output.maxBracketedCapturePhotoCount == 8)
        }
    }

    @Test func preparedSettingsRenderAheadAndASecondCallCancelsTheFirst() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        let bracket = autoBracket([-1, 0, 1])
        let size = rig.device.module.readoutSize(forPhoto: rig.device.activeFormat.dimensions)
        // The running session warmed up for a default photo; an empty array frees that render.
        #expect(rig.device.camera.isPrepared(size: size))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            rig.output.setPreparedPhotoSettingsArray([]) { prepared, _ in #expect(prepared); done.resume() }
        }
        #expect(!rig.device.camera.isPrepared(size: size))
        let outcomes = OutcomeLog()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            rig.output.setPreparedPhotoSettingsArray([bracket]) { prepared, _ in outcomes.append(("first", prepared)) }
            rig.output.setPreparedPhotoSettingsArray([bracket]) { prepared, error in
                outcomes.append(("second", prepared))
                #expect(error == nil)
                done.resume()
            }
        }
        #expect(outcomes.entries.map(\.0) == ["first", "second"])
        // The first is cancelled (false) unless it already finished: with the render cache warm, reading the render
        // back can complete before the second call arrives.
        #expect(outcomes.entries.map(\.1) == [false, true] || outcomes.entries.map(\.1) == [true, true])
        #expect(rig.device.camera.isPrepared(size: size))
        #expect(rig.output.preparedPhotoSettingsArray.count == 1)

        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            rig.output.setPreparedPhotoSettingsArray([]) { prepared, _ in #expect(prepared); done.resume() }
        }
        #expect(!rig.device.camera.isPrepared(size: size))
    }
}

/// Thread-safe log of completion-handler calls.
final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var entries: [(String, Bool)] = []
    func append(_ entry: (String, Bool)) { lock.lock(); entries.append(entry); lock.unlock() }
}
