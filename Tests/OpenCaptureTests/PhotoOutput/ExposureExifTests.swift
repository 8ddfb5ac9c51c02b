import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// The exposure tags a photo's EXIF records, against each other and against what iPhones write.
@Suite struct ExposureExifTests {
    static func exif(_ lighting: SimulatedLighting, flash: AVCaptureDevice.FlashMode) async throws -> [String: Any] {
        let rig = CaptureRig(preset: .vga640x480, lighting: lighting)
        let settings = AVCapturePhotoSettings()
        settings.flashMode = flash
        let photo = try #require(try await rig.capture(settings).photos.first)
        return try #require(photo.metadata["{Exif}"] as? [String: Any])
    }

    /// BrightnessValue is the scene's light as metered: the flash (metered by its pre-flash) changes the exposure, not Bv,
    /// so the dark room reads darker than the dim one with the flash as without it (it read 3 EV brighter than the dim
    /// room, the pre-flash's flash-lit subject, before).
    @Test func brightnessValueLeavesTheFlashOut() async throws {
        let lit = try await Self.exif(.dark, flash: .on), unlit = try await Self.exif(.dark, flash: .off)
        let dim = try await Self.exif(.dim, flash: .off)
        #expect((lit["Flash"] as? Int).map { $0 & 1 } == 1 && (unlit["Flash"] as? Int).map { $0 & 1 } == 0)
        #expect(lit["ExposureTime"] as? Double != unlit["ExposureTime"] as? Double
                || (lit["ISOSpeedRatings"] as? [Int]) != (unlit["ISOSpeedRatings"] as? [Int]))
        let bv = try [lit, unlit, dim].map { try #require($0["BrightnessValue"] as? Double) }
        #expect(bv[0] == bv[1], "\(bv)")
        #expect(bv[0] < bv[2] - 2 && bv[0] < -4, "dark with flash \(bv[0]), without \(bv[1]), dim \(bv[2])")
    }

    /// SceneType 1, "directly photographed", as iPhones' photos say: the photo's metadata dictionary said so, its JPEG,
    /// HEIC and DNG did not carry the tag.
    @Test func photosSayTheyWereDirectlyPhotographed() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        let formats = [AVCapturePhotoSettings(), AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]),
                       AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)]
        for (settings, fileExtension) in zip(formats, ["jpg", "heic", "dng"]) {
            let photo = try #require(try await rig.capture(settings).photos.first)
            let data = try #require(photo.fileDataRepresentation())
            #expect(ExifReader.read(photo: data)?.sceneType == 1, "\(fileExtension)")
            #expect((photo.metadata["{Exif}"] as? [String: Any])?["SceneType"] as? Int == 1)
            if ExternalTool.exiftool.isInstalled {
                let tag = try ExternalTool.exiftool.run(["-s", "-s", "-s", "-n", "-SceneType"], file: data, fileExtension: fileExtension)
                #expect(String(decoding: tag.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1",
                        "\(fileExtension)")
            }
        }
    }
}
