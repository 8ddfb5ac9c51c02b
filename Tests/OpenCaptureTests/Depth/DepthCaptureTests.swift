import CameraSimulation
import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// Photos with depth through the Apple surface, measured against the simulator's ground truth.
@Suite struct DepthCaptureTests {
    static func depthRig(_ type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position = .back,
                         matte: Bool = false) -> CaptureRig {
        let rig = CaptureRig(type, position: position, preset: .vga640x480)
        rig.output.isDepthDataDeliveryEnabled = true
        rig.output.isPortraitEffectsMatteDeliveryEnabled = matte
        return rig
    }

    static func depthSettings(codec: AVVideoCodecType = .hevc, matte: Bool = false) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: codec])
        settings.isDepthDataDeliveryEnabled = true
        settings.isCameraCalibrationDataDeliveryEnabled = true
        settings.isPortraitEffectsMatteDeliveryEnabled = matte
        return settings
    }

    /// The true disparity (1/m) at the depth map's size: the photo's depth truth averaged down.
    static func trueDisparity(_ photo: AVCapturePhoto, size: Size) throws -> [Float] {
        let truth = try #require(photo.simulationGroundTruth())
        let depth = Raster<Float>(width: truth.width, height: truth.height, channels: 1,
                                  storage: truth.depth.map { 1 / $0 })
        return Resampler.downscale(depth, to: size).storage
    }

    /// A dual camera with matte delivery whose user tapped the back person's face: focus and the
    /// matte's subject follow the point of interest.
    static func portraitRig() throws -> CaptureRig {
        let rig = CaptureRig(.builtInDualCamera, preset: .photo)
        rig.output.isDepthDataDeliveryEnabled = true
        rig.output.isPortraitEffectsMatteDeliveryEnabled = true
        let camera = SimulatedCamera(module: .backTelephoto, scene: .default)
        let face = try #require(camera.pixelLocation(of: SimulatedScene.backPersonFaceCenter, size: Size(width: 640, height: 480)))
        try rig.device.lockForConfiguration()
        rig.device.focusPointOfInterest = CGPoint(x: face.x / 640, y: face.y / 480)
        rig.device.unlockForConfiguration()
        return rig
    }

    @Test func singleCamerasHaveNoDepth() {
        let rig = CaptureRig(.builtInWideAngleCamera, preset: .vga640x480)
        #expect(!rig.output.isDepthDataDeliverySupported)
        rig.output.isDepthDataDeliveryEnabled = true
        #expect(!rig.output.isDepthDataDeliveryEnabled)
        #expect(throws: PhotoSettingsError.featureNotEnabled("Depth data delivery")) {
            try rig.output.validate(Self.depthSettings())
        }
    }

    @Test func depthRulesGiveTypedErrors() throws {
        let rig = Self.depthRig(.builtInDualCamera)
        #expect(rig.output.isDepthDataDeliverySupported && rig.output.isDepthDataDeliveryEnabled)
        let matteOnly = AVCapturePhotoSettings()
        matteOnly.isPortraitEffectsMatteDeliveryEnabled = true
        #expect(throws: PhotoSettingsError.portraitEffectsMatteNeedsDepth) { try rig.output.validate(matteOnly) }
        let calibrationOnly = AVCapturePhotoSettings()
        calibrationOnly.isCameraCalibrationDataDeliveryEnabled = true
        #expect(throws: PhotoSettingsError.cameraCalibrationNeedsDepth) { try rig.output.validate(calibrationOnly) }
        // The matte needs the output's matte delivery.
        #expect(throws: PhotoSettingsError.featureNotEnabled("Portrait effects matte delivery")) {
            try rig.output.validate(Self.depthSettings(matte: true))
        }
        // Depth in a bracket.
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0)])
        bracket.isDepthDataDeliveryEnabled = true
        #expect(throws: PhotoSettingsError.bracketUnsupportedFeature("depth data delivery")) { try rig.output.validate(bracket) }
        // Depth with RAW only.
        let rawOnly = AVCapturePhotoSettings(rawPixelFormatType: rig.output.availableRawPhotoPixelFormatTypes[0])
        rawOnly.photoQualityPrioritization = .speed
        rawOnly.isAutoStillImageStabilizationEnabled = false
        rawOnly.isDepthDataDeliveryEnabled = true
        #expect(throws: PhotoSettingsError.depthNeedsProcessedPhoto) { try rig.output.validate(rawOnly) }
        // A refused capture reports through didFinishCapture, never traps.
        let refused = AVCapturePhotoSettings()
        refused.isPortraitEffectsMatteDeliveryEnabled = true
        let delegate = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: refused, delegate: delegate)
    }

    @Test func turningDepthOffLetsTheRequestInFlightFinishWithDepth() async throws {
        let rig = Self.depthRig(.builtInTrueDepthCamera, position: .front)
        let delegate = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: Self.depthSettings(), delegate: delegate)
        rig.output.isDepthDataDeliveryEnabled = false            // reconfigures for later requests only
        await delegate.waitUntilFinished()
        #expect(delegate.errors.isEmpty)
        #expect(delegate.photos.first?.depthData != nil)
        #expect(!rig.output.isDepthDataDeliveryEnabled)
        #expect(throws: PhotoSettingsError.featureNotEnabled("Depth data delivery")) {
            try rig.output.validate(Self.depthSettings())
        }
    }

    @Test func dualCameraMeasuresRelativeDisparityAgainstTheTruth() async throws {
        let rig = Self.depthRig(.builtInDualCamera)
        let result = try await rig.capture(Self.depthSettings())
        let photo = try #require(result.photos.first)
        let depth = try #require(photo.depthData)
        #expect(depth.depthDataType == kCVPixelFormatType_DisparityFloat16)
        #expect(depth.depthDataAccuracy == .relative)
        #expect(depth.isDepthDataFiltered)
        #expect(photo.sourceDeviceType == .builtInDualCamera)
        let width = CVPixelBufferGetWidth(depth.depthDataMap), height = CVPixelBufferGetHeight(depth.depthDataMap)
        #expect(result.resolvedSettings.depthDataDimensions.width == Int32(width))
        let measured = try #require(depth.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32).depthDataMap.depthValues())
        let size = Size(width: width, height: height)
        let truth = try Self.trueDisparity(photo, size: size)

        // Error in pixels of shift at this size: disparity × f·B. A pixel is bad beyond 1 px of shift
        // (≈ 0.19 1/m here: 1.5 m read as 1.2 or 2.0 m), the Middlebury bad-1 criterion at this resolution.
        let calibration = try #require(depth.cameraCalibrationData)
        let fx = Double(calibration.intrinsicMatrix.columns.0.x) * Double(width)
            / Double(calibration.intrinsicMatrixReferenceDimensions.width)
        let fB = Float(fx * 0.01)
        let textured = try Self.texturedPixels(photo, size: size, disparity: truth, focalBaseline: fB)
        var bad = 0, sum: Float = 0, count = 0, texturedBad = 0, texturedCount = 0
        for i in truth.indices where truth[i].isFinite && measured.storage[i].isFinite {
            let error = abs(measured.storage[i] - truth[i])
            if error * fB > 1 { bad += 1 }
            if textured[i] { texturedCount += 1; if error * fB > 1 { texturedBad += 1 } }
            sum += error
            count += 1
        }
        let badRate = Double(bad) / Double(max(count, 1)), mean = sum / Float(max(count, 1))
        let texturedRate = Double(texturedBad) / Double(max(texturedCount, 1))
        print("dual camera \(width)×\(height): bad-1px \(badRate * 100) % of all, \(texturedRate * 100) % of \(texturedCount) textured; mean |Δ| \(mean) 1/m")
        #expect(count == width * height)
        // Measured here: 15 % of all pixels, 13 % of textured ones, mean 0.10 1/m. At 320×240 the wall
        // and the board differ by under 2 px of shift; flat surfaces (the clipped window, the plain grey
        // board and wall) carry no parallax signal and are filled from their surroundings, and the
        // zone plate's fine rings alias at this size. The bounds guard against regressions.
        // Asked for as depth, no pixel reads as beyond ≈ 50 m (a shift under ¼ px is that far, not infinite).
        let metres = try #require(depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap.depthValues())
        #expect(metres.storage.allSatisfy { $0.isFinite && $0 > 0 && $0 < 100 })
        #expect(texturedCount > width * height / 10)
        // Since the lenses distort (barrel, 2.5 % wide and 0.8 % tele) and the wide splits colours, each eye is
        // undistorted through Apple's 42-entry tables before matching: measured 20 % of all, 16 % textured, 0.13 1/m.
        #expect(texturedRate < 0.18)
        #expect(badRate < 0.22)
        #expect(mean < 0.14)
    }

    /// Pixels at `size` where the true picture has detail (a neighbour's luma differs by over 10 %)
    /// away from depth edges (the true shift varies by under ½ px within 2 px: the photo's hand shake
    /// moves its edges against the truth's by about that much).
    static func texturedPixels(_ photo: AVCapturePhoto, size: Size, disparity: [Float], focalBaseline fB: Float) throws -> [Bool] {
        let truth = try #require(photo.simulationGroundTruth())
        var luma = Raster<Float>(width: truth.width, height: truth.height, channels: 1)
        for i in 0..<(truth.width * truth.height) {
            luma.storage[i] = 0.2126 * truth.linearSRGB[3 * i] + 0.7152 * truth.linearSRGB[3 * i + 1]
                + 0.0722 * truth.linearSRGB[3 * i + 2]
        }
        let small = Resampler.downscale(luma, to: size)
        var out = [Bool](repeating: false, count: size.width * size.height)
        for y in 1..<(size.height - 1) { for x in 1..<(size.width - 1) {
            let v = small[x, y]
            let neighbours = [small[x - 1, y], small[x + 1, y], small[x, y - 1], small[x, y + 1]]
            guard neighbours.contains(where: { abs($0 - v) > 0.1 * max(v, $0, 1e-3) }) else { continue }
            var lo = Float.infinity, hi = -Float.infinity
            for yy in max(0, y - 2)...min(size.height - 1, y + 2) { for xx in max(0, x - 2)...min(size.width - 1, x + 2) {
                lo = min(lo, disparity[yy * size.width + xx]); hi = max(hi, disparity[yy * size.width + xx])
            } }
            out[y * size.width + x] = (hi - lo) * fB < 0.5
        } }
        return out
    }

    @Test func trueDepthMeasuresAbsoluteDepthOfTheFace() async throws {
        let rig = Self.depthRig(.builtInTrueDepthCamera, position: .front)
        #expect(rig.output.isDepthDataDeliverySupported)
        let settings = Self.depthSettings()
        settings.isDepthDataFiltered = false
        let result = try await rig.capture(settings)
        let photo = try #require(result.photos.first)
        let depth = try #require(photo.depthData)
        #expect(depth.depthDataAccuracy == .absolute)
        #expect(!depth.isDepthDataFiltered)
        let metres = try #require(depth.converting(toDepthDataType: kCVPixelFormatType_DepthFloat32).depthDataMap.depthValues())
        // The face centre, projected with the colour camera's own geometry.
        let camera = SimulatedCamera(module: .frontTrueDepth, scene: .default)
        let p = try #require(camera.pixelLocation(of: SimulatedScene.faceCenter, size: metres.size))
        let truth: Raster<Float> = camera.depthMap(size: metres.size)
        var errors: [Float] = []
        for dy in -4...4 { for dx in -4...4 {
            let x = Int(p.x) + dx, y = Int(p.y) + dy
            let v = metres[x, y]
            if v.isFinite { errors.append(abs(v - truth[x, y])) }
        } }
        #expect(errors.count > 40)
        let median = errors.sorted()[errors.count / 2]
        print("TrueDepth face: median |Δ| \(median * 1000) mm over \(errors.count) px")
        #expect(median < 0.01)
    }

    @Test func trueDepthMatteCoversThePerson() async throws {
        let rig = Self.depthRig(.builtInTrueDepthCamera, position: .front, matte: true)
        let result = try await rig.capture(Self.depthSettings(matte: true))
        let photo = try #require(result.photos.first)
        let matte = try #require(photo.portraitEffectsMatte)
        #expect(matte.pixelFormatType == kCVPixelFormatType_OneComponent8)
        let values = try #require(matte.mattingImage.matteValues())
        #expect(values.width == 320 && values.height == 240)
        #expect(result.resolvedSettings.portraitEffectsMatteDimensions.width == 320)
        let truth = SimulatedCamera(module: .frontTrueDepth, scene: .default).personMask(size: values.size)
        var intersection: Float = 0, union: Float = 0
        for (m, t) in zip(values.storage, truth.storage) {
            intersection += min(m, t) > 0.5 ? 1 : 0
            union += max(m, t) > 0.5 ? 1 : 0
        }
        let iou = union > 0 ? intersection / union : 0
        print("TrueDepth matte IoU \(iou)")
        #expect(iou > 0.9)
    }

    // The dual camera at the photo preset (12 MP telephoto, 768×576 depth) with the back person's face tapped: the
    // person stands 2.45 m away, ≈ 2 px of parallax in front of the wall, with a plain face the matcher leaves
    // mostly unmatched; the depth finds the head and the photo's colours place its outline. IoU ≥ 0.85: the head and
    // neck hold ≈ 54 000 px of the 2016×1512 matte with an outline of ≈ 900 px, so 0.85 allows about 4 px of
    // average outline error (0.2 % of the width).
    @Test func dualCameraMatteFindsTheBackPerson() async throws {
        let rig = try Self.portraitRig()
        let settings = Self.depthSettings(codec: .jpeg, matte: true)
        let result = try await rig.capture(settings)
        let photo = try #require(result.photos.first)
        let matte = try #require(photo.portraitEffectsMatte, "no matte")
        let values = try #require(matte.mattingImage.matteValues())
        #expect(values.width == 2016 && values.height == 1512)
        let truth = SimulatedCamera(module: .backTelephoto, scene: .default).personMask(size: values.size)
        var intersection = 0, union = 0
        for (m, t) in zip(values.storage, truth.storage) {
            intersection += m >= 0.5 && t >= 0.5 ? 1 : 0
            union += m >= 0.5 || t >= 0.5 ? 1 : 0
        }
        let iou = union > 0 ? Double(intersection) / Double(union) : 0
        print("dual camera matte IoU \(iou) (\(intersection) of \(union) px)")
        #expect(iou >= 0.85)
    }

    @Test func heicAndJPEGCarryTheDepth() async throws {
        for codec in [AVVideoCodecType.hevc, .jpeg] {
            let rig = Self.depthRig(.builtInTrueDepthCamera, position: .front, matte: true)
            let result = try await rig.capture(Self.depthSettings(codec: codec, matte: true))
            let photo = try #require(result.photos.first)
            let data = try #require(photo.fileDataRepresentation())
            let embedded = try EmbeddedDepthReader.read(data)
            let depth = try #require(embedded.depth)
            let delivered = try #require(photo.depthData?.depthDataMap.depthValues())
            #expect(depth.size == delivered.size)
            // Within the 8-bit quantisation step of the stored range.
            let range = try #require(depth.finiteRange)
            let step = (range.upperBound - range.lowerBound) / 255
            var worst: Float = 0
            for (a, b) in zip(depth.values.storage, delivered.storage) where a.isFinite && b.isFinite { worst = max(worst, abs(a - b)) }
            // HEIC stores the codes losslessly; JPEG's depth image is a lossy JPEG, as on iPhones.
            let tolerance = codec == .hevc ? step * 0.51 + 0.002 : step * 2.5
            #expect(worst <= tolerance, "\(codec): worst \(worst), step \(step)")
            #expect(depth.calibration?.referenceDimensions == Size(width: 640, height: 480))
            let matte = try #require(embedded.matte)
            let deliveredMatte = try #require(photo.portraitEffectsMatte?.mattingImage.matteValues())
            #expect(matte.size == deliveredMatte.size)
        }
    }

    @Test(.enabled(if: ExternalTool.heifInfo.isInstalled))
    func heifInfoSeesTheDepthChannel() async throws {
        let rig = Self.depthRig(.builtInDualCamera)
        let result = try await rig.capture(Self.depthSettings())
        let data = try #require(result.photos.first?.fileDataRepresentation())
        let output = try ExternalTool.heifInfo.run([], file: data, fileExtension: "heic").output
        #expect(output.contains("depth channel: yes"))
    }

    @Test func autoFocusFindsTheChartAndTheExifRecordsIt() async throws {
        let rig = CaptureRig(.builtInWideAngleCamera, preset: .vga640x480)
        #expect(rig.device.focusMode == .continuousAutoFocus)
        // The centre of the frame is the easel board at 1.5 m.
        let result = try await rig.capture(AVCapturePhotoSettings())
        let photo = try #require(result.photos.first)
        let data = try #require(photo.fileDataRepresentation())
        let exif = try ExifReader.read(jpeg: data)
        let distance = try #require(exif.subjectDistance)
        #expect(abs(1 / distance - 1 / 1.5) < 0.15, "focused at \(distance) m")
        #expect(exif.subjectArea?.count == 4)
        // Locking the lens at infinity: the EXIF follows.
        try rig.device.lockForConfiguration()
        rig.device.setFocusModeLocked(lensPosition: 1)
        rig.device.unlockForConfiguration()
        #expect(rig.device.focusMode == .locked && rig.device.lensPosition == 1)
        let far = try await rig.capture(AVCapturePhotoSettings())
        let farExif = try ExifReader.read(jpeg: try #require(far.photos.first?.fileDataRepresentation()))
        #expect(farExif.subjectDistance == .infinity)
    }

    @Test func focusSettersReportInsteadOfTrapping() throws {
        let front = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInTrueDepthCamera, position: .front))
        #expect(!front.isFocusModeSupported(.autoFocus) && front.focusMode == .locked)
        try front.lockForConfiguration()
        front.focusMode = .continuousAutoFocus          // unsupported: reported, unchanged
        front.setFocusModeLocked(lensPosition: 0.5)     // fixed focus: reported
        front.unlockForConfiguration()
        #expect(front.focusMode == .locked)
        let wide = try #require(AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back))
        try wide.lockForConfiguration()
        wide.setFocusModeLocked(lensPosition: 2)        // out of range: reported, unchanged
        wide.focusPointOfInterest = CGPoint(x: 1.5, y: 0)
        wide.unlockForConfiguration()
        #expect(wide.focusMode == .continuousAutoFocus)
        #expect(wide.focusPointOfInterest == CGPoint(x: 0.5, y: 0.5))
        #expect(wide.minimumFocusDistance == 100)
    }
}

