import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCaptureTools

/// Linear DNGs (PhotometricInterpretation LinearRaw, three samples a pixel: Apple ProRAW's form, Adobe DNG Converter's
/// linear option's, PiDNG's and tifffile's) develop through the stages a mosaic goes through, the demosaic skipped.
/// The files are assembled by hand (`HandMadeDNG`), their camera RGB linear sRGB (ColorMatrix1 = XYZ → sRGB), so the
/// developed photo of a known scene is known.
@Suite struct LinearDNGDevelopTests {
    static let black = [512, 520, 530], white = 16_383
    static let neutral = [0.55, 1.0, 0.75]
    static let colours: [SIMD3<Double>] = [
        SIMD3(0.60, 0.08, 0.06), SIMD3(0.07, 0.45, 0.10), SIMD3(0.05, 0.08, 0.50),
        SIMD3(0.65, 0.60, 0.07), SIMD3(0.08, 0.40, 0.45), SIMD3(0.35, 0.12, 0.40),
    ]

    /// The scene in linear sRGB: a grey ramp of eight steps (0.02 … 0.72) over the top half, six colour patches below.
    static func patches(x: Int, y: Int, width: Int, height: Int) -> SIMD3<Double> {
        y < height / 2 ? SIMD3(repeating: 0.02 + Double(x * 8 / width) * 0.1) : colours[x * 6 / width]
    }

    /// A smooth scene (no edges, so a demosaic recovers it): gradients in every channel.
    static func smooth(x: Int, y: Int, width: Int, height: Int) -> SIMD3<Double> {
        let u = Double(x) / Double(width), v = Double(y) / Double(height)
        return SIMD3(0.05 + 0.5 * u, 0.08 + 0.4 * v, 0.1 + 0.3 * (1 - u) * v + 0.1 * u)
    }

    /// The camera's code for white-balanced linear value `v` in channel `c` (its raw response is `v` × AsShotNeutral).
    static func code(_ v: Double, _ c: Int, black: [Int]) -> UInt16 {
        let b = Double(black[c % black.count])
        return UInt16((b + min(1, max(0, v * neutral[c])) * (Double(white) - b)).rounded())
    }

    static func dng(width: Int, height: Int, linear: Bool = true, black: [Int] = black, baseline: Double? = nil,
                    orientation: Int = 1, scene: (Int, Int, Int, Int) -> SIMD3<Double>) -> HandMadeDNG {
        var samples: [UInt16] = []
        samples.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = scene(x, y, width, height)
                if linear {
                    for c in 0..<3 { samples.append(code(rgb[c], c, black: black)) }
                } else {
                    let c = y % 2 == 0 ? (x % 2 == 0 ? 0 : 1) : (x % 2 == 0 ? 1 : 2)   // RGGB
                    samples.append(code(rgb[c], c, black: black))
                }
            }
        }
        var file = HandMadeDNG(width: width, height: height, samples: samples, linear: linear)
        file.blackLevel = black
        file.whiteLevel = white
        file.asShotNeutral = neutral
        file.baselineExposure = baseline
        file.orientation = orientation
        return file
    }

    static func truth(width: Int, height: Int, scene: (Int, Int, Int, Int) -> SIMD3<Double>) -> Raster<Float> {
        var raster = Raster<Float>(width: width, height: height, channels: 3, repeating: 0)
        for y in 0..<height {
            for x in 0..<width {
                let rgb = scene(x, y, width, height)
                for c in 0..<3 { raster[x, y, c] = Float(rgb[c]) }
            }
        }
        return raster
    }

    @Test func linearDNGDevelopsToTheKnownColours() throws {
        let w = 128, h = 64
        let file = Self.dng(width: w, height: h, baseline: 0.5, scene: Self.patches)
        var developer = RawDeveloper()
        developer.noiseReduction = 0
        let photo = try developer.develop(Data(file.bytes), as: .png)
        #expect(photo.width == w && photo.height == h)
        #expect(photo.info.cfaPattern == "linear" && photo.info.blackLevel == [512, 520, 530] && photo.info.whiteLevel == 16_383)
        let developed = try PNGCodec.decode(photo.data)
        // What the same tone curve makes of the scene brightened by BaselineExposure: every pixel within 2 codes.
        var settings = ISPSettings()
        settings.sharpening = 0
        let expected = ImageSignalProcessor(settings: settings)
            .renderReference(Self.truth(width: w, height: h, scene: Self.patches), baselineExposure: 0.5)
        var worst = 0
        for i in developed.storage.indices { worst = max(worst, abs(Int(developed.storage[i]) - Int(expected.storage[i]))) }
        #expect(worst <= 2, "largest difference \(worst) codes")
        // The grey ramp is neutral (white balance from AsShotNeutral, black level per channel) and rises step by step.
        var previous = -1
        for step in 0..<8 {
            let x = step * w / 8 + w / 16, y = h / 4
            let rgb = (0..<3).map { Int(developed[x, y, $0]) }
            #expect(rgb.max()! - rgb.min()! <= 1, "grey step \(step): \(rgb)")
            #expect(rgb[1] > previous, "grey step \(step)")
            previous = rgb[1]
        }
        // The colour patches keep their hues: red, green, blue, yellow, cyan, purple.
        let patch = { (i: Int) in (0..<3).map { Int(developed[i * w / 6 + w / 12, 3 * h / 4, $0]) } }
        #expect(patch(0)[0] > 2 * patch(0)[1] && patch(1)[1] > 2 * patch(1)[0] && patch(2)[2] > 2 * patch(2)[1])
        #expect(patch(3)[0] > 2 * patch(3)[2] && patch(4)[2] > 2 * patch(4)[0] && patch(5)[2] > patch(5)[1])
    }

    @Test func bayerAndLinearDNGsOfOneSceneDevelopAlike() throws {
        let w = 160, h = 120
        let developer = RawDeveloper()
        let linear = try PNGCodec.decode(developer.develop(Data(Self.dng(width: w, height: h, black: [512],
                                                                           scene: Self.smooth).bytes), as: .png).data)
        let bayer = try PNGCodec.decode(developer.develop(Data(Self.dng(width: w, height: h, linear: false, black: [512],
                                                                          scene: Self.smooth).bytes), as: .png).data)
        #expect(linear.width == bayer.width && linear.height == bayer.height)
        var sum = 0, worst = 0, count = 0
        for y in 4..<(h - 4) {
            for x in 4..<(w - 4) {
                for c in 0..<3 {
                    let d = abs(Int(linear[x, y, c]) - Int(bayer[x, y, c]))
                    sum += d
                    worst = max(worst, d)
                    count += 1
                }
            }
        }
        #expect(Double(sum) / Double(count) < 0.75, "mean difference \(Double(sum) / Double(count))")
        #expect(worst <= 3, "largest difference \(worst)")
    }

    @Test(arguments: [DevelopedFileFormat.jpeg, .png, .tiff])
    func orientationIsRecordedAsTheBayerPathRecordsIt(_ format: DevelopedFileFormat) throws {
        let file = Self.dng(width: 64, height: 48, orientation: 6, scene: Self.patches)
        let photo = try RawDeveloper().develop(Data(file.bytes), as: format)
        #expect(photo.info.orientation == 6)
        #expect(photo.width == 64 && photo.height == 48)   // recorded, not applied, as for a mosaic
        #expect(ExifReader.read(photo: photo.data)?.orientation == 6, "\(format)")
        #expect(try FileInspector.inspect(photo.data)["Orientation"] == "6", "\(format)")
    }

    @Test func damagedLinearDNGsGiveTypedErrorsAndNoFile() throws {
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = Self.dng(width: 64, height: 48, scene: Self.patches)
        var fourSamples = good
        fourSamples.samplesPerPixelTag = 4
        var monochrome = HandMadeDNG(width: 64, height: 48, samples: [UInt16](repeating: 600, count: 64 * 48), linear: false)
        monochrome.samplesPerPixelTag = 1
        var monochromeBytes = monochrome.bytes
        // PhotometricInterpretation CFA → LinearRaw with one sample a pixel.
        let at = try #require(Self.offset(ofTag: 262, in: monochromeBytes))
        monochromeBytes[at + 8] = UInt8(34892 & 0xFF)
        monochromeBytes[at + 9] = UInt8(34892 >> 8)
        let cases: [(String, [UInt8])] = [
            ("cut short", Array(good.bytes.prefix(good.bytes.count - 64 * 48 * 3))),
            ("four samples", fourSamples.bytes), ("one sample", monochromeBytes),
        ]
        for (name, bytes) in cases {
            let source = dir.appendingPathComponent("\(name).dng"), destination = dir.appendingPathComponent("\(name).jpg")
            try Data(bytes).write(to: source)
            #expect(throws: RawDevelopError.self, "\(name)") {
                try RawDeveloper().develop(contentsOf: source, as: .jpeg, to: destination)
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path), "\(name)")
        }
        #expect(throws: RawDevelopError.unsupported("the linear DNG has 1 samples per pixel; RGB ones (3) are read")) {
            try RawDeveloper().develop(Data(monochromeBytes), as: .png)
        }
    }

    /// The byte offset of `tag`'s entry in IFD0 of a little-endian TIFF.
    static func offset(ofTag tag: UInt16, in bytes: [UInt8]) -> Int? {
        let ifd = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        let count = Int(bytes[ifd]) | Int(bytes[ifd + 1]) << 8
        return (0..<count).map { ifd + 2 + 12 * $0 }.first { Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8 == Int(tag) }
    }

    /// LibRaw's own development of the same file (dcraw_emu, linear 16-bit, camera white balance, sRGB, no
    /// auto-brightening) has the same colours as OpenCapture's linear output, up to one overall scale (dcraw_emu
    /// scales by its own normalised multipliers and ignores BaselineExposure).
    @Test(.enabled(if: ExternalTool.dcrawEmu.isInstalled, "dcraw_emu (libraw-bin) not installed"))
    func dcrawEmuDevelopsTheSameColours() throws {
        let w = 96, h = 64
        let bytes = Self.dng(width: w, height: h, baseline: 0.5, scene: Self.patches).bytes
        let dir = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("linear.dng")
        try Data(bytes).write(to: file)
        let run = try ExternalTool.dcrawEmu.run(["-4", "-W", "-w", "-o", "1", file.path])
        #expect(run.status == 0, "\(run.output)\(run.errorOutput)")
        let theirs = try Self.ppm16(Data(contentsOf: URL(fileURLWithPath: file.path + ".ppm")))
        #expect(theirs.width == w && theirs.height == h)
        var settings = ISPSettings()
        settings.noiseReduction = 0
        settings.sharpening = 0
        let ours = ImageSignalProcessor(settings: settings).processLinear(try RawDeveloper.read(bytes).0)
        let greyX = 7 * w / 8 + w / 16, y0 = h / 4
        let scale = Double(ours[greyX, y0, 1]) / Double(theirs[greyX, y0, 1])
        #expect(abs(scale - pow(2, 0.5)) < 0.06 * pow(2, 0.5), "overall scale \(scale)")
        for (x, y) in (0..<8).map({ ($0 * w / 8 + w / 16, y0) }) + (0..<6).map({ ($0 * w / 6 + w / 12, 3 * h / 4) }) {
            for c in 0..<3 {
                let a = Double(ours[x, y, c]), b = Double(theirs[x, y, c]) * scale
                #expect(abs(a - b) <= 0.03 * max(a, b) + 0.003, "(\(x), \(y)) channel \(c): ours \(a), dcraw_emu's \(b)")
            }
        }
    }

    struct PPMError: Error { let fields: [String] }

    /// A 16-bit binary PPM (P6, maxval 65535) as 0…1 samples.
    static func ppm16(_ data: Data) throws -> Raster<Float> {
        let bytes = [UInt8](data)
        var fields: [String] = [], i = 0
        while fields.count < 4 {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            let start = i
            while i < bytes.count, !(bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09) { i += 1 }
            fields.append(String(decoding: bytes[start..<i], as: UTF8.self))
        }
        i += 1
        guard fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "65535",
              bytes.count - i >= w * h * 6 else { throw PPMError(fields: fields) }
        var raster = Raster<Float>(width: w, height: h, channels: 3, repeating: 0)
        for k in 0..<(w * h * 3) {
            raster.storage[k] = Float(Int(bytes[i + 2 * k]) << 8 | Int(bytes[i + 2 * k + 1])) / 65_535
        }
        return raster
    }
}
