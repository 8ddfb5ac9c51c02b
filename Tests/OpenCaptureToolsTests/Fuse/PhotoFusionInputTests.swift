import CaptureCore
import Foundation
@testable import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureTools

/// What `PhotoFusion` accepts, refuses before decoding, and carries into its outputs.
@Suite struct PhotoFusionInputTests {
    /// A three-shot bracket of a gradient, as 8-bit codes of `scale` × the linear light.
    static func bracket(width: Int = 64, height: Int = 48) -> [Raster<UInt8>] {
        [0.25, 1.0, 4.0].map { scale in
            var image = Raster<UInt8>(width: width, height: height, channels: 3)
            for y in 0..<height { for x in 0..<width { for c in 0..<3 {
                let linear = (Double(x) / Double(width) * 0.9 + Double(c) * 0.03 + (y / 8 % 2 == 0 ? 0.05 : 0)) * scale
                image[x, y, c] = UInt8(SRGBTransfer.encode(Float(min(linear, 1))) * 255)
            } } }
            return image
        }
    }

    /// Portrait iPhone-style EXIF: orientation 6, Display P3 (ColorSpace uncalibrated).
    static func portraitExif(_ index: Int) -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.model = "Simulated iPhone"
        exif.software = "OpenCapture 0.1"
        exif.orientation = 6
        exif.colorSpace = 0xFFFF
        exif.iso = 100
        exif.exposureTime = [1.0 / 240, 1.0 / 60, 1.0 / 15][index]
        exif.fNumber = 1.8
        return exif
    }

    static func iccDescription(_ jpeg: Data) -> String? {
        (try? JPEGSegments.iccProfile(in: jpeg)).flatMap(ICCProfile.description(of:))
    }

    @Test func portraitDisplayP3ShotsStayPortraitAndP3() throws {
        let files = try Self.bracket().enumerated().map { index, image in
            try JPEGEncoder.encode(image, exif: Self.portraitExif(index), iccProfile: ICCProfile.data(for: .displayP3))
        }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(result.colorSpace == .displayP3 && result.orientation == 6)
        let toneMapped = try #require(result.toneMappedJPEG)
        for output in [result.fusedJPEG, toneMapped] {
            let exif = try ExifReader.read(jpeg: output)
            #expect(exif.orientation == 6)
            #expect(exif.colorSpace == 0xFFFF)
            #expect(exif.make == "OpenCapture" && exif.model == "Simulated iPhone")
            #expect(exif.exposureTime == 1.0 / 60, "the reference (middle) frame's EXIF")
            #expect(exif.software?.hasSuffix("fusion") == true)
            #expect(Self.iccDescription(output) == "Display P3")
            let size = try JPEGDecoder.size(of: output)
            #expect(size.width == 64 && size.height == 48, "pixels are stored as given, not rotated")
        }
        #expect(result.exposures?.count == 3)
        #expect(result.timings.map(\.step).contains("HDR merge") && result.timings.allSatisfy { $0.seconds >= 0 })
        // The .hdr has no orientation tag: it is written upright, the same radiance as the unturned bracket's turned.
        let upright = try files.enumerated().map { index, _ -> Data in
            var exif = Self.portraitExif(index)
            exif.orientation = 1
            return try JPEGEncoder.encode(Self.bracket()[index], exif: exif, iccProfile: ICCProfile.data(for: .displayP3))
        }
        let plain = try RadianceHDR.decode(try #require(PhotoFusion().fuse(fileData: upright).radianceHDR))
        let turned = try RadianceHDR.decode(try #require(result.radianceHDR))
        #expect(turned.width == 48 && turned.height == 64)
        #expect(turned.storage == ExifOrientationTransform(exifOrientation: 6, size: Size(width: 64, height: 48)).apply(plain).storage)
    }

    /// EXIF "uncalibrated" without a profile (what exiftool writes into any EXIF it creates) is no colour space: the
    /// pixels are sRGB, as colour-managed readers take them, and the outputs say sRGB.
    @Test func uncalibratedExifWithoutAProfileIsSRGB() throws {
        let files = try Self.bracket().enumerated().map { index, image in
            try JPEGEncoder.encode(image, exif: Self.portraitExif(index))
        }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(result.colorSpace == .sRGB)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).colorSpace == 1)
        #expect(Self.iccDescription(result.fusedJPEG) != "Display P3")
    }

    /// A frame with transparent pixels is refused, naming it (its alpha would be dropped and what it hid fused in);
    /// an RGBA PNG that is opaque everywhere fuses like RGB.
    @Test func transparentPNGsAreRefusedOpaqueRGBAFuses() throws {
        let frames = Self.bracket()
        func rgba(_ image: Raster<UInt8>, alpha: (Int, Int) -> UInt8) -> Raster<UInt8> {
            var out = Raster<UInt8>(width: image.width, height: image.height, channels: 4)
            for y in 0..<image.height { for x in 0..<image.width {
                for c in 0..<3 { out[x, y, c] = image[x, y, c] }
                out[x, y, 3] = alpha(x, y)
            } }
            return out
        }
        let holed = try PNGCodec.encode(rgba(frames[1]) { x, y in x < 10 && y < 10 ? 0 : 255 })
        let files = try [PNGCodec.encode(frames[0]), holed, PNGCodec.encode(frames[2])]
        #expect(throws: PhotoFusionError.unreadable("image 2", reason: "unsupported: a PNG with transparent pixels (100 of 3072 are not opaque)")) {
            try PhotoFusion().fuse(fileData: files)
        }
        let opaque = try [PNGCodec.encode(frames[0]), PNGCodec.encode(rgba(frames[1]) { _, _ in 255 }), PNGCodec.encode(frames[2])]
        let plain = try frames.map { try PNGCodec.encode($0) }
        let fused = try PhotoFusion().fuse(fileData: plain).fusedJPEG
        #expect(try PhotoFusion().fuse(fileData: opaque).fusedJPEG == fused)
        // Frames without EXIF: the output claims no camera detail.
        #expect(try ExifReader.read(jpeg: fused).sensingMethod == nil)
    }

    /// A HEIC with transparent pixels is refused as a PNG is, in the same words (its alpha plane was dropped without a
    /// word, what it hid fused in, while the PNG was refused).
    @Test(.enabled(if: ExternalTool.heifEnc.isInstalled, "heif-enc not installed"))
    func transparentHEICsAreRefusedAsPNGsAre() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = Self.bracket()
        var holed = Raster<UInt8>(width: 64, height: 48, channels: 4)
        for y in 0..<48 { for x in 0..<64 {
            for c in 0..<3 { holed[x, y, c] = frames[1][x, y, c] }
            holed[x, y, 3] = x < 16 && y < 16 ? 0 : 255
        } }
        let pngs = try [PNGCodec.encode(frames[0]), PNGCodec.encode(holed), PNGCodec.encode(frames[2])]
        let heics = try pngs.enumerated().map { index, png -> Data in
            let input = folder.appendingPathComponent("\(index).png"), output = folder.appendingPathComponent("\(index).heic")
            try png.write(to: input)
            let run = try ExternalTool.heifEnc.run(["-L", input.path, "-o", output.path])
            try #require(run.status == 0, "\(run.errorOutput)")
            return try Data(contentsOf: output)
        }
        #expect(try HEIFDecoder.decode(heics[1]).channels == 3)   // read elsewhere with its alpha dropped, as before
        let refusal = #expect(throws: MediaFormatError.self) { try HEIFDecoder.decode(heics[1], transparency: .refused) }
        #expect(refusal?.description.hasPrefix("unsupported: a HEIF image with transparent pixels (256 of 3072") == true, "\(String(describing: refusal))")
        do {
            _ = try PhotoFusion().fuse(fileData: heics)
            Issue.record("a transparent HEIC was fused")
        } catch let PhotoFusionError.unreadable(name, reason) {
            #expect(name == "image 2" && reason.hasPrefix("unsupported: a HEIF image with transparent pixels ("), "\(reason)")
        }
    }

    @Test func pngsWithADisplayP3ProfileGiveDisplayP3Outputs() throws {
        let profile = ICCProfile.data(for: .displayP3)
        let files = try Self.bracket().map { image -> Data in
            let png = try PNGCodec.encode(image)
            // An iCCP chunk: name, NUL, compression 0, the profile in stored zlib blocks.
            let stream = StoredZlib.stream([UInt8](profile))
            return try PNGCodec.inserting(chunk: "iCCP", Data(Array("P3".utf8) + [0, 0] + stream), into: png)
        }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(result.colorSpace == .displayP3)
        #expect(Self.iccDescription(result.fusedJPEG) == "Display P3")
    }


    /// PNGs carrying EXIF in an `eXIf` chunk (as `develop --format png` writes them from a portrait DNG, and exiftool
    /// writes them) keep their orientation and give their exposures, as JPEGs do: the eXIf chunk was ignored, so a
    /// portrait bracket of PNGs fused into a landscape picture and `--hdr` asked for exposures the files carried.
    @Test func pngsCarryTheirEXIFOrientationAndExposures() throws {
        let files = try Self.bracket().enumerated().map { index, image in
            try PNGCodec.encode(image, exif: Self.portraitExif(index))
        }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(result.orientation == 6)
        #expect(result.exposures?.count == 3)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).orientation == 6)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).exposureTime == 1.0 / 60)
        let mixed = [files[0], try PNGCodec.encode(Self.bracket()[1]), files[2]]
        #expect(throws: PhotoFusionError.mixedOrientations("image 1 has EXIF orientation 6, image 2 has 1")) {
            try PhotoFusion().fuse(fileData: mixed)
        }
    }
    /// A bracket tagged with a profile of another colour space (Adobe RGB here, as cameras and ImageMagick's `-profile`
    /// write it) keeps that profile: the fused values are in its encoding, and tagging them sRGB (as they were) shows
    /// them desaturated. ColorSpace is then "uncalibrated", as for any profile that is not sRGB.
    @Test func aProfileOtherThanSRGBOrP3IsKept() throws {
        let utf16 = { (text: String) in Data(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }) }
        var adobe = ICCProfile.data(for: .sRGB)
        let name = try #require(adobe.range(of: utf16("sRGB IEC61966-2.1")))
        adobe.replaceSubrange(name, with: utf16("Adobe RGB (1998) "))
        #expect(ICCProfile.description(of: adobe) == "Adobe RGB (1998) ")
        let files = try Self.bracket().map { try JPEGEncoder.encode($0, exif: ExifMetadata(), iccProfile: adobe) }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(try JPEGSegments.iccProfile(in: result.fusedJPEG) == adobe)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).colorSpace == 0xFFFF)
        // sRGB- and P3-tagged frames still get the profile of their colour space.
        let srgb = try Self.bracket().map { try JPEGEncoder.encode($0, exif: ExifMetadata(), iccProfile: ICCProfile.data(for: .sRGB)) }
        let plain = try PhotoFusion().fuse(fileData: srgb)
        #expect(try JPEGSegments.iccProfile(in: plain.fusedJPEG) == ICCProfile.data(for: .sRGB))
        #expect(try ExifReader.read(jpeg: plain.fusedJPEG).colorSpace == 1)
    }

    @Test func sRGBFilesGiveSRGBOutputs() throws {
        let files = try Self.bracket().map { try PNGCodec.encode($0) }
        let result = try PhotoFusion().fuse(fileData: files)
        #expect(result.colorSpace == .sRGB && result.orientation == 1)
        #expect(Self.iccDescription(result.fusedJPEG) == "sRGB IEC61966-2.1")
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).colorSpace == 1)
    }

    @Test func heicFilesFuse() throws {
        var options = HEIFEncodingOptions()
        options.colorSpace = .displayP3
        options.thumbnailMaxDimension = nil
        let files = try Self.bracket().map { try HEIFEncoder.encode($0, options: options) }
        let result = try PhotoFusion().fuse(fileData: files, exposures: [0.25, 1, 4])
        #expect(result.width == 64 && result.height == 48)
        #expect(result.colorSpace == .displayP3)
        #expect(Self.iccDescription(result.fusedJPEG) == "Display P3")
        #expect(result.radianceHDR != nil)
    }

    /// HEIC brackets get their exposures (time × ISO) from the Exif item, as JPEG brackets do,
    /// and their colour space from the file's profile.
    @Test(arguments: [ColorSpace.displayP3, .sRGB])
    func heicExposuresComeFromTheirExif(colorSpace: ColorSpace) throws {
        let files = try Self.bracket().enumerated().map { index, image in
            var options = HEIFEncodingOptions()
            options.colorSpace = colorSpace
            options.thumbnailMaxDimension = nil
            var exif = Self.portraitExif(index)
            exif.colorSpace = 1                 // the profile, not EXIF, must decide
            options.exif = exif
            options.orientation = 6
            return try HEIFEncoder.encode(image, options: options)
        }
        let result = try PhotoFusion().fuse(fileData: files)
        let exposures = try #require(result.exposures)
        #expect(exposures.count == 3)
        for (got, want) in zip(exposures, [100.0 / 240, 100.0 / 60, 100.0 / 15]) { #expect(abs(got - want) < 1e-9) }
        #expect(result.colorSpace == colorSpace)
        #expect(result.width == 48 && result.height == 64, "libheif applies irot: the pixels are as displayed")
        #expect(result.radianceHDR != nil && result.toneMappedJPEG != nil)
        let exif = try ExifReader.read(jpeg: result.fusedJPEG)
        #expect(exif.orientation == 1, "already upright")
        #expect(exif.exposureTime == 1.0 / 60 && exif.iso == 100 && exif.model == "Simulated iPhone")
        #expect(Self.iccDescription(result.fusedJPEG) == (colorSpace == .displayP3 ? "Display P3" : "sRGB IEC61966-2.1"))
    }

    @Test func bracketFilesWithTheWrongExtensionFuse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-renamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = HEIFEncodingOptions()
        options.thumbnailMaxDimension = nil
        options.colorSpace = .displayP3     // as the JPEGs' profiles say
        options.exif = Self.portraitExif(1)
        let frames = Self.bracket()
        // The HEIC has no irot (its pixels are upright as stored), so the JPEGs are stored upright too.
        let upright = { (index: Int) in var exif = Self.portraitExif(index); exif.orientation = 1; return exif }
        let files: [(String, Data)] = [
            ("dark.heic", try JPEGEncoder.encode(frames[0], exif: upright(0), iccProfile: ICCProfile.data(for: .displayP3))),
            ("middle.jpg", try HEIFEncoder.encode(frames[1], options: options)),
            ("bright.png", try JPEGEncoder.encode(frames[2], exif: upright(2), iccProfile: ICCProfile.data(for: .displayP3))),
        ]
        var urls: [URL] = []
        for (name, data) in files {
            urls.append(folder.appendingPathComponent(name))
            try data.write(to: urls.last!)
        }
        let result = try PhotoFusion().fuse(contentsOf: urls)
        #expect(result.width == 64 && result.height == 48)
        #expect(result.exposures?.count == 3 && result.colorSpace == .displayP3)
    }

    /// A PNG whose IHDR claims `width`×`height`, followed by `body` bytes that are not image data.
    static func lyingPNG(width: UInt32, height: UInt32, body: Int) -> Data {
        var d = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        d += Data("IHDR".utf8)
        for v in [width, height] { d += Data([UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]) }
        d += Data([8, 2, 0, 0, 0, 0, 0, 0, 0])
        return d + Data(repeating: 0, count: body)
    }

    @Test func lyingHeadersAreRefusedBeforeDecoding() throws {
        let good = try PNGCodec.encode(Self.bracket()[1])
        // A 138-byte file claiming 20000×20000: the header alone cannot hold it.
        #expect(throws: PhotoFusionError.unreadable("image 2", reason: "the file is truncated")) {
            try PhotoFusion().fuse(fileData: [good, Self.lyingPNG(width: 20_000, height: 20_000, body: 105)])
        }
        // Enough bytes to be plausible, but beyond what a fusion can hold.
        #expect(throws: PhotoFusionError.unreadable("image 2", reason: "20000×20000 is too large to fuse (limit 100 megapixels)")) {
            try PhotoFusion().fuse(fileData: [good, Self.lyingPNG(width: 20_000, height: 20_000, body: 1_200_000)])
        }
        // A size mismatch is found from the headers: the second file's body is never decoded.
        #expect(throws: PhotoFusionError.sizeMismatch("image 1 is 64×48, image 2 is 64×49")) {
            try PhotoFusion().fuse(fileData: [good, Self.lyingPNG(width: 64, height: 49, body: 200)])
        }
        #expect(throws: PhotoFusionError.unreadable("image 2", reason: "the file is empty")) {
            try PhotoFusion().fuse(fileData: [good, Data()])
        }
        let p3 = try JPEGEncoder.encode(Self.bracket()[0], exif: Self.portraitExif(0), iccProfile: ICCProfile.data(for: .displayP3))
        #expect(throws: PhotoFusionError.mixedColorSpaces("image 1 is sRGB, image 2 is displayP3")) {
            try PhotoFusion().fuse(fileData: [good, p3])
        }
        // One frame tagged as turned: its stored pixels do not line up with the others'.
        let portrait = try JPEGEncoder.encode(Self.bracket()[0], exif: Self.portraitExif(0), iccProfile: ICCProfile.data(for: .sRGB))
        #expect(throws: PhotoFusionError.mixedOrientations("image 1 has EXIF orientation 1, image 2 has 6")) {
            try PhotoFusion().fuse(fileData: [good, portrait])
        }
    }

    @Test(arguments: [0.02, 0.3, 0.7, 0.99])
    func aTruncatedDNGIsAnErrorNotItsPreview(fraction: Double) throws {
        let dng = DevelopFixtures.frame.dng
        let cut = dng.prefix(Int(Double(dng.count) * fraction))
        #expect(throws: PhotoFusionError.self) { try PhotoFusion().fuse(fileData: [dng, cut, dng]) }
    }

    @Test func aWholeDNGBracketFusesFromTheMosaic() throws {
        let dng = DevelopFixtures.frame.dng
        let result = try PhotoFusion().fuse(fileData: [dng, dng])
        #expect(result.width == DevelopFixtures.frame.raw.width && result.height == DevelopFixtures.frame.raw.height)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).make == "OpenCapture")
    }

    @Test func truncatedAndCorruptJPEGsAreErrors() throws {
        let jpegs = try Self.bracket().map { try JPEGEncoder.encode($0) }
        #expect(throws: PhotoFusionError.self) { try PhotoFusion().fuse(fileData: [jpegs[0], jpegs[1].prefix(jpegs[1].count / 2)]) }
        var flipped = jpegs[1]
        for i in stride(from: 400, to: flipped.count - 2, by: 37) { flipped[i] ^= 0x5A }
        #expect(throws: PhotoFusionError.self) { try PhotoFusion().fuse(fileData: [jpegs[0], flipped]) }
    }
}
