import CaptureCore
import Foundation
import MediaFormats
import Testing
@testable import OpenCaptureTools

@Suite struct PhotoFusionTests {
    @Test func filesFuseAndBadInputIsAClearError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-fusion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var urls: [URL] = []
        for (index, scale) in [0.25, 1.0, 4.0].enumerated() {
            var image = Raster<UInt8>(width: 96, height: 64, channels: 3)
            for y in 0..<64 { for x in 0..<96 { for c in 0..<3 {
                let linear = (Double(x) / 96 * 0.9 + Double(c) * 0.03 + (y / 8 % 2 == 0 ? 0.05 : 0)) * scale
                image[x, y, c] = UInt8(SRGBTransfer.encode(Float(min(linear, 1))) * 255)
            } } }
            let url = folder.appendingPathComponent("shot\(index).\(index == 1 ? "tif" : "png")")
            try (index == 1 ? TIFFCodec.encode(image) : PNGCodec.encode(image)).write(to: url)
            urls.append(url)
        }
        let withoutExposures = try PhotoFusion().fuse(contentsOf: urls)
        #expect(withoutExposures.radianceHDR == nil && withoutExposures.exposures == nil)
        #expect(withoutExposures.shifts.count == 3)
        // One scene: every frame agrees with the reference (fuse warns above 35 %).
        #expect(withoutExposures.disagreement.map { $0.count == 3 && $0.allSatisfy { $0 < 0.35 } } == true,
                "\(String(describing: withoutExposures.disagreement))")
        // Asking for the HDR without exposures fails before any decoding, naming the files that lack them.
        var strict = PhotoFusion()
        strict.requiresExposures = true
        #expect(throws: PhotoFusionError.invalidExposures(
            "unknown for shot0.png, shot1.tif, shot2.png (no EXIF exposure time and ISO); give them, e.g. 0.25,1,4")) {
            try strict.fuse(contentsOf: urls)
        }
        #expect(try strict.fuse(contentsOf: urls, exposures: [0.25, 1, 4]).radianceHDR != nil)
        let withExposures = try PhotoFusion().fuse(contentsOf: urls, exposures: [0.25, 1, 4])
        let hdr = try RadianceHDR.decode(try #require(withExposures.radianceHDR))
        #expect(hdr.width == 96 && hdr.height == 64)

        #expect(throws: PhotoFusionError.notEnoughImages(1)) { try PhotoFusion().fuse(contentsOf: [urls[0]]) }
        #expect(throws: PhotoFusionError.invalidExposures("2 values for 3 images")) {
            try PhotoFusion().fuse(contentsOf: urls, exposures: [1, 2])
        }
        let garbage = folder.appendingPathComponent("garbage.jpg")
        try Data("definitely not an image".utf8).write(to: garbage)
        #expect(throws: PhotoFusionError.self) { try PhotoFusion().fuse(contentsOf: [urls[0], garbage]) }
        let small = folder.appendingPathComponent("small.png")
        try PNGCodec.encode(Raster<UInt8>(width: 8, height: 8, channels: 3, repeating: 100)).write(to: small)
        #expect(throws: PhotoFusionError.sizeMismatch("shot0.png is 96×64, small.png is 8×8")) { try PhotoFusion().fuse(contentsOf: [urls[0], small]) }
    }

    /// Files in any order: with known exposures the reference is the middle exposure's frame (its EXIF is the
    /// result's), not the middle file.
    @Test func theReferenceIsTheMiddleExposureInAnyOrder() throws {
        var files: [Data] = []
        for (scale, lens) in [(4.0, "over"), (0.25, "under"), (1.0, "mid")] {
            var image = Raster<UInt8>(width: 64, height: 48, channels: 3)
            for y in 0..<48 { for x in 0..<64 { for c in 0..<3 {
                image[x, y, c] = UInt8(SRGBTransfer.encode(Float(min((Double(x) / 64 * 0.8 + 0.05) * scale, 1))) * 255)
            } } }
            var exif = ExifMetadata()
            exif.exposureTime = scale / 100
            exif.iso = 100
            exif.orientation = 6
            exif.lensModel = lens
            files.append(try JPEGEncoder.encode(image, exif: exif))
        }
        let result = try PhotoFusion().fuse(fileData: files, names: ["over.jpg", "under.jpg", "mid.jpg"])
        #expect(result.exposures.map { $0.count } == 3)
        #expect(result.orientation == 6)
        #expect(try ExifReader.read(jpeg: result.fusedJPEG).lensModel == "mid")
    }

    /// A dark square in another place in each frame of a −2/0/+2 bracket: the HDR holds it where the reference frame
    /// saw it and the background where the other frames did (no ghost), as the deghosted fusion does.
    @Test func theHDRDoesNotGhostWhatMoved() throws {
        let width = 256, height = 160, squares = [16, 104, 192], top = 56, side = 48
        func radiance(_ x: Int, _ y: Int, frame k: Int) -> Double {
            (squares[k]..<(squares[k] + side)).contains(x) && (top..<(top + side)).contains(y) ? 0.01 : 0.05 + 0.3 * Double(x) / Double(width)
        }
        let exposures = [0.25, 1.0, 4.0]
        let files = try exposures.indices.map { k -> Data in
            var image = Raster<UInt8>(width: width, height: height, channels: 3)
            for y in 0..<height { for x in 0..<width {
                let v = UInt8((SRGBTransfer.encode(Float(min(radiance(x, y, frame: k) * exposures[k], 1))) * 255).rounded())
                for c in 0..<3 { image[x, y, c] = v }
            } }
            return try PNGCodec.encode(image)
        }
        var fusion = PhotoFusion()
        fusion.alignsImages = false
        let result = try fusion.fuse(fileData: files, exposures: exposures)
        let hdr = try RadianceHDR.decode(try #require(result.radianceHDR))
        func mean(_ x0: Int) -> Double {
            var sum = 0.0
            for y in (top + 12)..<(top + side - 12) { for x in (x0 + 12)..<(x0 + side - 12) { sum += Double(hdr[x, y, 1]) } }
            return sum / Double((side - 24) * (side - 24))
        }
        // In units of the reference (exposure 1): the square where the middle frame saw it, the background elsewhere.
        #expect(abs(mean(squares[1]) - 0.01) < 0.004, "reference square \(mean(squares[1]))")
        for k in [0, 2] {
            let background = 0.05 + 0.3 * Double(squares[k] + side / 2) / Double(width)
            #expect(abs(mean(squares[k]) / background - 1) < 0.1, "frame \(k)'s square: \(mean(squares[k])) vs \(background)")
        }
    }
}
