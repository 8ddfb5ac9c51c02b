import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCapture

@Suite struct WideColorAndHEICTests {
    /// Pixels whose colour lies outside sRGB: decoded as Display P3, converted to linear sRGB, red < −0.02.
    func outOfSRGBCount(_ image: Raster<UInt8>, assumingP3: Bool) -> Int {
        let toSRGB = ColorSpace.sRGB.conversion(from: .displayP3)
        var count = 0
        for i in 0..<(image.width * image.height) {
            let linear = SIMD3<Double>((0..<3).map { Double(SRGBTransfer.decodeTable8[Int(image.storage[3 * i + $0])]) })
            let srgb = assumingP3 ? toSRGB * linear : linear
            if srgb.x < -0.02 && srgb.y > 0.05 { count += 1 }
        }
        return count
    }

    @Test func photoOutputSessionsPickDisplayP3UnlessTheAppChooses() throws {
        let auto = CaptureRig(), manual = CaptureRig(wideColor: false)
        try withExtendedLifetime((auto, manual)) {
            #expect(auto.device.activeColorSpace == .P3_D65)
            #expect(auto.device.activeFormat.supportedColorSpaces == [.sRGB, .P3_D65])
            #expect(manual.device.activeColorSpace == .sRGB)
            try manual.device.lockForConfiguration()
            manual.device.activeColorSpace = .P3_D65
            manual.device.unlockForConfiguration()
            #expect(manual.device.activeColorSpace == .P3_D65)
            try manual.device.lockForConfiguration()
            manual.device.activeColorSpace = .appleLog  // not supported: reported and ignored
            manual.device.unlockForConfiguration()
            #expect(manual.device.activeColorSpace == .P3_D65)
        }
    }

    @Test func p3PhotosKeepColoursOutsideSRGBAndAreTaggedP3() async throws {
        let p3 = CaptureRig(preset: .vga640x480, lighting: .daylight)
        let srgb = CaptureRig(preset: .vga640x480, lighting: .daylight, wideColor: false)
        let p3Data = try #require(try await p3.capture().photos[0].fileDataRepresentation())
        let srgbData = try #require(try await srgb.capture().photos[0].fileDataRepresentation())
        let p3Image = try JPEGDecoder.decode(p3Data), srgbImage = try JPEGDecoder.decode(srgbData)
        let kept = outOfSRGBCount(p3Image, assumingP3: true)
        #expect(kept > 200, "P3 photo: \(kept) pixels outside sRGB")
        #expect(outOfSRGBCount(srgbImage, assumingP3: false) == 0)
        #expect(try ExifReader.read(jpeg: p3Data).colorSpace == 0xFFFF)
        #expect(try ExifReader.read(jpeg: srgbData).colorSpace == 1)
    }

    @Test func hevcPhotosAreHEICFilesWithThumbnailExifAndProfile() async throws {
        let rig = CaptureRig(preset: .vga640x480)
        #expect(rig.output.availablePhotoCodecTypes == [.hevc, .jpeg])
        #expect(rig.output.availablePhotoFileTypes.contains(.heic))
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc,
                                                       AVVideoCompressionPropertiesKey: [AVVideoQualityKey: 0.8]])
        settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 160, AVVideoHeightKey: 160]
        let photo = try #require(try await rig.capture(settings).photos.first)
        let data = try #require(photo.fileDataRepresentation())
        let info = try HEIFDecoder.info(data)
        #expect(Set([info.width, info.height]) == [640, 480])  // irot from the portrait orientation may swap them
        #expect(info.hasThumbnail && info.hasExif)
        // The photo's thumbnail format is the resolved one: the size the thumbnail has, fitted to the photo's shape.
        let thumbnail = try #require(photo.embeddedThumbnailPhotoFormat)
        #expect(thumbnail[AVVideoWidthKey] as? Int == 160 && thumbnail[AVVideoHeightKey] as? Int == 120, "\(thumbnail)")
        // None asked for, none embedded (Apple: a nil embeddedThumbnailPhotoFormat embeds no thumbnail).
        let plain = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        let bare = try #require(try await rig.capture(plain).photos.first)
        #expect(try !HEIFDecoder.info(try #require(bare.fileDataRepresentation())).hasThumbnail)
        #expect(bare.embeddedThumbnailPhotoFormat == nil)
        #expect(info.colorProfileDescription == "Display P3")
        let decoded = try HEIFDecoder.decode(data)
        #expect(decoded.width * decoded.height == 640 * 480)

        let wrongType = AVCapturePhotoSettings(rawPixelFormatType: 0, rawFileType: nil,
                                               processedFormat: [AVVideoCodecKey: AVVideoCodecType.hevc], processedFileType: .jpg)
        #expect(throws: PhotoSettingsError.unsupportedFileType(AVFileType.jpg.rawValue)) { try rig.output.validate(wrongType) }
    }
}
