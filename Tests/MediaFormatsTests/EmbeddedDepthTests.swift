import CaptureCore
import Foundation
import OpenCaptureTestSupport
import Testing
@testable import MediaFormats

@Suite struct EmbeddedDepthTests {
    /// A 1024×768 photo with an iPhone-sized 768×576 disparity map (with holes) and a 512×384 matte.
    static let heic: Data = {
        var options = HEIFEncodingOptions()
        options.depth = DepthAuxiliaryImage(map: DepthFixtures.disparity(holes: true))
        options.portraitMatte = MatteAuxiliaryImage(matte: DepthFixtures.matte())
        return try! HEIFEncoder.encode(TestImages.colourful(width: 1024, height: 768), options: options)
    }()

    static let jpeg: Data = {
        try! JPEGEncoder.encode(TestImages.colourful(width: 1024, height: 768), exif: HEIFCodecTests.exif(),
                                depth: DepthAuxiliaryImage(map: DepthFixtures.disparity()),
                                portraitMatte: MatteAuxiliaryImage(matte: DepthFixtures.matte()))
    }()

    /// Largest |a − b| over finite values; NaN must match NaN.
    static func maxError(_ a: Raster<Float>, _ b: Raster<Float>) -> Float {
        precondition(a.size == b.size)
        var worst: Float = 0
        for (x, y) in zip(a.storage, b.storage) {
            if x.isNaN || y.isNaN { if x.isNaN != y.isNaN { return .infinity }; continue }
            worst = max(worst, abs(x - y))
        }
        return worst
    }

    // MARK: HEIC

    @Test func heicRoundTripWithinQuantisationStep() throws {
        let original = DepthFixtures.disparity(holes: true)
        let read = try EmbeddedDepthReader.read(Self.heic)
        let depth = try #require(read.depth)
        let m = try #require(read.depthMetadata)
        #expect(depth.size == Size(width: 768, height: 576))
        #expect(depth.kind == .disparity && depth.accuracy == .relative && depth.quality == .high && !depth.isFiltered)
        let step = (m.floatMaxValue! - m.floatMinValue!) / 255
        #expect(Self.maxError(original.values, depth.values) <= step / 2 + 1e-6)   // lossless HEVC: only the 8-bit step
        #expect(depth.calibration == DepthFixtures.calibration())
        let matte = try #require(read.matte)
        #expect(matte.size == Size(width: 512, height: 384))
        #expect(Self.maxError(DepthFixtures.matte(), matte) <= 0.5 / 255 + 1e-6)
        #expect(read.matteMetadata?.portraitEffectsMatteVersion == 65537)
    }

    @Test func heicStructureHasAuxiliaryItemsLikeAnIPhone() throws {
        let s = try HEIFStructure.parse(Self.heic)
        #expect(s.auxiliaryImages.map(\.type) == [HEIFEncoder.depthAuxiliaryURN, HEIFEncoder.portraitEffectsMatteURN])
        for aux in s.auxiliaryImages {
            #expect(aux.item.type == "hvc1" && aux.item.hidden)
            #expect(aux.xmp != nil)
        }
        #expect(s.auxiliaryImages[0].item.width == 768 && s.auxiliaryImages[0].item.height == 576)
        let sei = try #require(DepthRepresentationInfo(auxCSubtype: s.auxiliaryImages[0].subtype))
        let m = try #require(try EmbeddedDepthReader.read(Self.heic).depthMetadata)
        #expect(sei.type == .uniformDisparity)
        #expect(abs(sei.dMin! - Double(m.floatMinValue!)) < 1e-4 && abs(sei.dMax! - Double(m.floatMaxValue!)) < 1e-4)
        #expect(s.width == 1024 && s.primary.type == "grid")            // the primary is untouched
    }

    /// An iPhone HEIC (a dual-camera portrait read with heif-info and a box dump) associates the primary's `irot`
    /// with its depth item too; the depth still reads back as coded, unrotated, as `AVDepthData` carries it.
    @Test func rotatedHEICRotatesItsAuxiliaryItemsTooAndReadsThemAsCoded() throws {
        var options = HEIFEncodingOptions()
        options.orientation = 6
        options.depth = DepthAuxiliaryImage(map: DepthFixtures.disparity(holes: true))
        options.portraitMatte = MatteAuxiliaryImage(matte: DepthFixtures.matte())
        let data = try HEIFEncoder.encode(TestImages.colourful(width: 1024, height: 768), options: options)
        let s = try HEIFStructure.parse(data)
        #expect(s.primary.rotation != 0)
        #expect(s.auxiliaryImages.count == 2)
        for aux in s.auxiliaryImages { #expect(aux.item.rotation == s.primary.rotation) }
        let read = try EmbeddedDepthReader.read(data)
        #expect(read.depth?.size == Size(width: 768, height: 576))
        #expect(read.matte?.size == Size(width: 512, height: 384))
    }

    @Test func heicWithoutDepthReadsAsEmpty() throws {
        let plain = try HEIFEncoder.encode(TestImages.colourful(width: 128, height: 96), options: HEIFEncodingOptions())
        let read = try EmbeddedDepthReader.read(plain)
        #expect(read.depth == nil && read.matte == nil)
    }

    @Test func oddSizedAuxiliaryImageIsRefused() {
        var options = HEIFEncodingOptions()
        options.depth = DepthAuxiliaryImage(map: DepthFixtures.disparity(width: 99, height: 64))
        #expect(throws: MediaFormatError.self) { try HEIFEncoder.encode(TestImages.colourful(width: 128, height: 96), options: options) }
    }

    @Test(.enabled(if: ExternalTool.heifInfo.isInstalled, "heif-info not installed"))
    func heifInfoSeesTheDepthChannel() throws {
        let result = try ExternalTool.heifInfo.run([], file: Self.heic, fileExtension: "heic")
        #expect(result.status == 0, "\(result.errorOutput)")
        let m = try #require(try EmbeddedDepthReader.read(Self.heic).depthMetadata)
        // heif-info 1.15 prints the size on the next line: "depth channel: yes\n (768x576)".
        #expect(result.output.contains("depth channel: yes"), "\(result.output)")
        #expect(result.output.contains("(768x576)"), "\(result.output)")
        #expect(result.output.contains("representation: uniform disparity"), "\(result.output)")
        #expect(result.output.contains(String(format: "d-min: %.6f", m.floatMinValue!)) || result.output.contains("d-min: "),
                "\(result.output)")
        let dMax = result.output.split(separator: "\n").first { $0.contains("d-max:") }
            .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        #expect(dMax.map { abs($0 - Double(m.floatMaxValue!)) < 1e-4 } == true, "\(result.output)")
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolReadsTheDepthXMPOfTheHEIC() throws {
        // -a: the depth and matte packets both have apdi: fields, which exiftool would otherwise merge.
        let result = try ExternalTool.exiftool.run(["-a", "-ee", "-G1", "-XMP:all"], file: Self.heic, fileExtension: "heic")
        #expect(result.status == 0)
        #expect(result.output.contains("[XMP-depthData] Depth Data Version              : 65541"), "\(result.output)")
        #expect(result.output.contains("[XMP-depthData] Intrinsic Matrix Reference Width: 4032"), "\(result.output)")
        #expect(result.output.contains("[XMP-apdi]      Auxiliary Image Type            : disparity"), "\(result.output)")
        #expect(result.output.contains("[XMP-apdi]      Stored Format                   : 1278226488"), "\(result.output)")
        #expect(result.output.contains("[XMP-apdi]      Auxiliary Image Sub Type        : portraiteffectsmatte"), "\(result.output)")
        #expect(result.output.contains("[XMP-portraitEffectsMatte] Portrait Effects Matte Version: 65537"), "\(result.output)")
    }

    // MARK: JPEG

    @Test func jpegHasAnMPFIndexAndRoundTrips() throws {
        let index = try #require(try MultiPictureIndex.read(jpeg: Self.jpeg))
        #expect(index.entries.count == 3)
        #expect(index.entries[0].type == 0x030000 && index.entries[0].offset == 0)
        #expect(index.entries[1].type == 0 && index.entries[2].type == 0)
        #expect(index.entries.last.map { $0.offset + $0.size } == Self.jpeg.count)
        let images = index.images(in: Self.jpeg)
        #expect(try JPEGDecoder.size(of: images[1]) == Size(width: 768, height: 576))

        let original = DepthFixtures.disparity()
        let read = try EmbeddedDepthReader.read(Self.jpeg)
        let depth = try #require(read.depth)
        let m = try #require(read.depthMetadata)
        let step = (m.floatMaxValue! - m.floatMinValue!) / 255
        #expect(depth.isFiltered && depth.kind == .disparity)
        // Quality-100 JPEG adds up to about one code at the subject's edge (measured 1.49 steps).
        #expect(Self.maxError(original.values, depth.values) <= 2 * step)
        #expect(depth.calibration == DepthFixtures.calibration())
        let matte = try #require(read.matte)
        #expect(Self.maxError(DepthFixtures.matte(), matte) <= 2.0 / 255)
        // The primary is still a plain JPEG with its EXIF.
        #expect(try ExifReader.read(jpeg: Self.jpeg).model == "iPhone (OpenCapture)")
        #expect(try JPEGDecoder.size(of: Self.jpeg) == Size(width: 1024, height: 768))
    }

    @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
    func exiftoolListsAndExtractsTheMPFImages() throws {
        let list = try ExternalTool.exiftool.run(["-G1", "-a", "-MPF:all"], file: Self.jpeg, fileExtension: "jpg")
        #expect(list.output.contains("Number Of Images                : 3"), "\(list.output)")
        #expect(list.output.contains("MP Image 2"), "\(list.output)")
        #expect(list.output.contains("MP Image 3"), "\(list.output)")
        let extracted = try ExternalTool.exiftool.run(["-b", "-MPImage2"], file: Self.jpeg, fileExtension: "jpg")
        #expect(try JPEGDecoder.size(of: extracted.standardOutput) == Size(width: 768, height: 576))
        let xmp = try ExternalTool.exiftool.run(["-a", "-G1", "-XMP:all"], file: extracted.standardOutput, fileExtension: "jpg")
        #expect(xmp.output.contains("[XMP-depthData] Depth Data Version              : 65541"), "\(xmp.output)")
        #expect(xmp.output.contains("[XMP-apdi]      Stored Format                   : 1278226488"), "\(xmp.output)")
        #expect(xmp.output.contains("[XMP-depthData] Filtered                        : True"), "\(xmp.output)")
        let matte = try ExternalTool.exiftool.run(["-b", "-MPImage3"], file: Self.jpeg, fileExtension: "jpg")
        let matteXMP = try ExternalTool.exiftool.run(["-a", "-G1", "-XMP:all"], file: matte.standardOutput, fileExtension: "jpg")
        #expect(matteXMP.output.contains("65537"), "\(matteXMP.output)")
    }

    @Test func describeReadsSizesAndMetadataWithoutPixels() throws {
        for file in [Self.heic, Self.jpeg] {
            let d = try EmbeddedDepthReader.describe(file)
            #expect(d.depthSize == Size(width: 768, height: 576))
            #expect(d.matteSize == Size(width: 512, height: 384))
            #expect(d.depthMetadata?.calibration == DepthFixtures.calibration())
            #expect(d.matteMetadata?.isPortraitEffectsMatte == true)
        }
    }

    @Test func plainJPEGReadsAsEmpty() throws {
        let plain = try JPEGEncoder.encode(TestImages.colourful(width: 64, height: 48))
        let read = try EmbeddedDepthReader.read(plain)
        #expect(read.depth == nil && read.matte == nil)
        #expect(try MultiPictureIndex.read(jpeg: plain) == nil)
    }

    // MARK: Hostile input

    @Test func damagedFilesThrowTypedErrors() throws {
        var bytes = [UInt8](Self.jpeg)
        // Point the depth entry's offset past the end of the file.
        let index = try #require(try MultiPictureIndex.read(jpeg: Self.jpeg))
        let mpf = try #require(try JPEGSegments.segments(in: Self.jpeg).first { $0.marker == 0xE2 })
        let entry1 = mpf.payload.lowerBound + 4 + 50 + 16 + 8
        bytes[entry1] = 0x7F
        #expect(throws: MediaFormatError.self) { try EmbeddedDepthReader.read(Data(bytes)) }
        // Cut the file inside the appended images.
        let cut = Self.jpeg.prefix(index.entries[1].offset + 100)
        #expect(throws: MediaFormatError.self) { try EmbeddedDepthReader.read(cut) }
        // A truncated HEIC, and one whose depth XMP is garbage.
        #expect(throws: MediaFormatError.self) { try EmbeddedDepthReader.read(Self.heic.prefix(Self.heic.count / 2)) }
        var heic = [UInt8](Self.heic)
        let s = try HEIFStructure.parse(Self.heic)
        let xmp = try #require(s.auxiliaryImages.first?.xmp)
        let at = try #require(heic.firstRange(of: xmp)).lowerBound
        heic[at + 1] = UInt8(ascii: "!")
        #expect(throws: MediaFormatError.self) { try EmbeddedDepthReader.read(Data(heic)) }
        #expect(throws: MediaFormatError.self) { try EmbeddedDepthReader.read(Data("not an image".utf8)) }
    }

    // MARK: Depth representation SEI

    @Test func readsAnIPhonesDepthRepresentationSEI() throws {
        // The auxC subtype bytes libheif's source quotes from an iPhone file.
        let apple: [UInt8] = [0, 0, 0, 0x11, 0, 0, 0, 0x0D, 0x4E, 0x01, 0xB1, 0x09, 0x35, 0x1E, 0x78, 0xC8, 0x01, 0x03, 0xC5, 0xD0, 0x20]
        let sei = try #require(DepthRepresentationInfo(auxCSubtype: apple))
        #expect(sei.type == .uniformDisparity && sei.zNear == nil && sei.zFar == nil)
        #expect(abs(sei.dMin! - 0.548828125) < 1e-9)
        #expect(sei.dMax! > sei.dMin!)
    }

    @Test(arguments: [0.0, 0.3117, 1.498047, 4.382812, 27.5, -0.02])
    func depthRepresentationSEIRoundTrips(_ value: Double) throws {
        let written = DepthRepresentationInfo(type: .uniformDisparity, dMin: value, dMax: value + 1)
        let bytes = written.auxCSubtype()
        let read = try #require(DepthRepresentationInfo(auxCSubtype: bytes))
        #expect(abs(read.dMin! - value) <= abs(value) * 1e-5 + 1e-9)
        #expect(abs(read.dMax! - (value + 1)) <= abs(value + 1) * 1e-5)
    }
}
