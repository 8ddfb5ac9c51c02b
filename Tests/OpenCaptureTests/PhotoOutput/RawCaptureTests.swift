import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

@Suite struct RawCaptureTests {
    let bayer = kCVPixelFormatType_14Bayer_RGGB

    @Test func rawFormatsMatchTheSensor() {
        let rig = CaptureRig()
        withExtendedLifetime(rig) {
            #expect(rig.output.availableRawPhotoPixelFormatTypes == [kCVPixelFormatType_14Bayer_RGGB])
            #expect(rig.output.availableRawPhotoFileTypes == [.dng])
            #expect(rig.output.supportedRawPhotoPixelFormatTypes(for: .dng) == [kCVPixelFormatType_14Bayer_RGGB])
            #expect(AVCapturePhotoOutput.isBayerRAWPixelFormat(kCVPixelFormatType_14Bayer_RGGB))
        }
    }

    @Test func rawOnlyDeliversTheBayerBufferAndADNG() async throws {
        let rig = CaptureRig()
        let settings = AVCapturePhotoSettings(rawPixelFormatType: bayer)
        settings.rawEmbeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 160]
        #expect(settings.photoQualityPrioritization == .speed && !settings.isAutoStillImageStabilizationEnabled)
        let result = try await rig.capture(settings)
        let resolved = result.resolvedSettings
        #expect(resolved.expectedPhotoCount == 1)
        #expect(resolved.photoDimensions.width == 0 && resolved.rawPhotoDimensions.width == 192)
        #expect(resolved.rawEmbeddedThumbnailDimensions.width == 160 && resolved.rawEmbeddedThumbnailDimensions.height == 120)
        let photo = try #require(result.photos.first)
        #expect(photo.isRawPhoto)
        let buffer = try #require(photo.pixelBuffer)
        #expect(CVPixelBufferGetPixelFormatType(buffer) == bayer)
        #expect(CVPixelBufferGetWidth(buffer) == 192 && CVPixelBufferGetHeight(buffer) == 144)
        #expect(buffer.attachments["WhiteLevel"] == "16383")
        let dng = try #require(photo.fileDataRepresentation())
        #expect(dng.prefix(4) == Data([0x49, 0x49, 0x2A, 0x00]))
        let (raw, info) = try RawFileReader.read(dng)
        #expect(info.width == 192 && info.height == 144 && raw.cfa == .rggb)
        // The DNG's mosaic is the buffer's.
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        let base = CVPixelBufferGetBaseAddress(buffer)!
        var same = true
        for y in 0..<144 { for x in 0..<192 where same {
            same = base.load(fromByteOffset: y * stride + 2 * x, as: UInt16.self) == raw.bayer[x, y]
        } }
        #expect(same)
    }

    @Test func rawPlusProcessedDeliversTwoPhotosPerExposure() async throws {
        let rig = CaptureRig()
        let settings = AVCapturePhotoSettings(rawPixelFormatType: bayer, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        let result = try await rig.capture(settings)
        #expect(result.resolvedSettings.expectedPhotoCount == 2)
        #expect(result.photos.map(\.isRawPhoto) == [true, false])
        #expect(result.photos.map(\.photoCount) == [1, 2])
        #expect(result.photos[1].fileDataRepresentation()?.prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test func rawBracketsCountEachPhoto() async throws {
        let rig = CaptureRig()
        let entries = [-1, 0, 1].map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: Float($0)) }
        let rawOnly = AVCapturePhotoBracketSettings(rawPixelFormatType: bayer, processedFormat: nil, bracketedSettings: entries)
        #expect(try await rig.capture(rawOnly).photos.count == 3)
        let both = AVCapturePhotoBracketSettings(rawPixelFormatType: bayer, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                                 bracketedSettings: entries)
        let result = try await rig.capture(both)
        #expect(result.resolvedSettings.expectedPhotoCount == 6)
        #expect(result.photos.map(\.photoCount) == [1, 2, 3, 4, 5, 6])
        #expect(result.photos.map(\.sequenceCount) == [1, 1, 2, 2, 3, 3])
        #expect(result.photos.map(\.isRawPhoto) == [true, false, true, false, true, false])
    }

    @Test func rawRulesAreEnforced() throws {
        let rig = CaptureRig()
        try withExtendedLifetime(rig) {
            let balanced = AVCapturePhotoSettings(rawPixelFormatType: bayer)
            balanced.photoQualityPrioritization = .balanced
            #expect(throws: PhotoSettingsError.rawNeedsSpeedPrioritization) { try rig.output.validate(balanced) }
            let stabilized = AVCapturePhotoSettings(rawPixelFormatType: bayer)
            stabilized.isAutoStillImageStabilizationEnabled = true
            #expect(throws: PhotoSettingsError.rawWithStillImageStabilization) { try rig.output.validate(stabilized) }
            let wrongCFA = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_GRBG)
            #expect(throws: PhotoSettingsError.unsupportedRawPixelFormat(kCVPixelFormatType_14Bayer_GRBG)) { try rig.output.validate(wrongCFA) }
            let wrongType = AVCapturePhotoSettings(rawPixelFormatType: bayer, rawFileType: .heic, processedFormat: nil, processedFileType: nil)
            #expect(throws: PhotoSettingsError.unsupportedFileType(AVFileType.heic.rawValue)) { try rig.output.validate(wrongType) }
            try rig.output.validate(AVCapturePhotoSettings(rawPixelFormatType: bayer, rawFileType: .dng, processedFormat: nil, processedFileType: nil))
        }
    }

    @Test(.enabled(if: ExternalTool.dcrawEmu.isInstalled, "needs dcraw_emu (libraw-bin)"))
    func libRawDevelopsOurDNG() async throws {
        let rig = CaptureRig(preset: .cif352x288, lighting: .daylight)
        let result = try await rig.capture(AVCapturePhotoSettings(rawPixelFormatType: bayer, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg]))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-dng-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dngURL = folder.appendingPathComponent("photo.dng")
        try #require(result.photos[0].fileDataRepresentation()).write(to: dngURL)
        #expect(try ExternalTool.dcrawEmu.run(["-w", "-T", dngURL.path]).status == 0)
        let developed = try TIFFCodec.decode(Data(contentsOf: folder.appendingPathComponent("photo.dng.tiff")))
        // dcraw applies the DNG's Orientation (6: portrait), so the developed image may be rotated.
        #expect(Set([developed.width, developed.height]) == [352, 288])
        // LibRaw's rendering and ours agree on the colours: mean channel ratios within 15 %.
        let ours = try JPEGDecoder.decode(try #require(result.photos[1].fileDataRepresentation()))
        func means(_ image: Raster<UInt8>) -> [Double] {
            (0..<3).map { c in stride(from: c, to: image.storage.count, by: 3).reduce(0.0) { $0 + Double(image.storage[$1]) } }
        }
        let a = means(developed), b = means(ours)
        #expect(abs(a[0] / a[1] - b[0] / b[1]) < 0.15 && abs(a[2] / a[1] - b[2] / b[1]) < 0.15, "\(a) vs \(b)")
    }
}
