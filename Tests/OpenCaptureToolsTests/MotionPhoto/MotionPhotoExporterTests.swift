import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import OpenCaptureTools
import Testing

@Suite struct MotionPhotoExporterTests {
    @Test func aLivePhotoPairBecomesAMotionPhotoReadersAccept() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder, stillImageTime: 0.5)
        let output = folder.appendingPathComponent("PXL_0001.MP.jpg")
        let summary = try MotionPhotoExporter.export(still: pair.still, movie: pair.movie, to: output)
        #expect(summary.contentIdentifier == LivePhotoPairFixture.identifier)
        #expect(summary.presentationTime == 0.5)
        let data = try Data(contentsOf: output)
        let info = try #require(try MotionPhoto.read(data))
        #expect(info.presentationTimestampUs == 500_000)
        let video = data[info.video]
        #expect(String(decoding: video.dropFirst(4).prefix(4), as: UTF8.self) == "ftyp", "an MP4 at the end")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["IMG_0001.JPG", "IMG_0001.MOV", "PXL_0001.MP.jpg"])
        // inspect reports the video, and a copy cut short as missing (not at an offset inside the still).
        #expect(try FileInspector.inspect(data).value("Video", in: "Motion Photo") == "\(video.count) bytes at offset \(info.video.lowerBound)")
        let cut = try FileInspector.inspect(data.prefix(data.count - 4096)).value("Video", in: "Motion Photo")
        #expect(cut?.hasPrefix("missing") == true, "\(cut ?? "no line")")
        if ExternalTool.exiftool.isInstalled {
            let xmp = try ExternalTool.exiftool.run(["-s", "-MotionPhoto", "-MicroVideoOffset"], file: data, fileExtension: "jpg")
            let text = String(decoding: xmp.standardOutput, as: UTF8.self)
            #expect(text.contains("MotionPhoto") && text.contains(": 1"))
            #expect(text.contains("\(video.count)"))
        }
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_streams", "-of", "json"], file: Data(video), fileExtension: "mp4")
            let json = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
            let codecs = (json["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }.sorted()
            #expect(codecs == ["aac", "h264"])
        }
    }

    @Test func aHEICMotionPhotoCarriesTheVideoInAnMpvdBox() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder, stillImageTime: 0.4)
        let output = folder.appendingPathComponent("PXL_0001.MP.heic")
        let summary = try MotionPhotoExporter.export(still: pair.still, movie: pair.movie, to: output)
        #expect(summary.contentIdentifier == LivePhotoPairFixture.identifier)
        let data = try Data(contentsOf: output)
        #expect(FileKind.of(data) == .heif)
        let info = try #require(try MotionPhoto.read(data))
        #expect(info.presentationTimestampUs == 400_000)
        let video = data[info.video]
        #expect(String(decoding: video.dropFirst(4).prefix(4), as: UTF8.self) == "ftyp", "an MP4 at the end")
        // The video is the payload of a top-level mpvd box that ends the file.
        let header = [UInt8](data[(info.video.lowerBound - 8)..<info.video.lowerBound])
        #expect(String(decoding: header[4...], as: UTF8.self) == "mpvd")
        // Found in its box with bytes appended after it too.
        #expect(try MotionPhoto.read(data + Data(repeating: 7, count: 100))?.video == info.video)
        #expect(Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3]) == video.count + 8)
        // The still decodes (libheif skips the box) and keeps its EXIF pairing.
        let rgb = try HEIFDecoder.decode(data)
        #expect(rgb.width == 64 && rgb.height == 48)
        let exif = try #require(try HEIFStructure.parse(data).exif.flatMap { try ExifReader.read(jpeg: $0) })
        #expect(exif.appleContentIdentifier == LivePhotoPairFixture.identifier)
        if ExternalTool.exiftool.isInstalled {
            let xmp = try ExternalTool.exiftool.run(["-s", "-MotionPhoto", "-MotionPhotoPresentationTimestampUs"], file: data, fileExtension: "heic")
            let text = String(decoding: xmp.standardOutput, as: UTF8.self)
            #expect(text.contains("MotionPhoto ") && text.contains("400000"), "\(text)")
        }
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_streams", "-of", "json"], file: Data(video), fileExtension: "mp4")
            let json = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
            let codecs = (json["streams"] as? [[String: Any]] ?? []).compactMap { $0["codec_name"] as? String }.sorted()
            #expect(codecs == ["aac", "h264"])
        }
    }

    /// A JPEG still's EXIF orientation is turned into the HEIC's pixels (its EXIF then says "up"), so a portrait
    /// photo stays upright and a mirrored one mirrored.
    @Test(arguments: [6, 2])
    func aJPEGStillsOrientationSurvivesTheHEIC(orientation: Int) throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder, orientation: orientation, rotation: orientation == 6 ? 90 : 0)
        let output = folder.appendingPathComponent("PXL_0001.MP.heic")
        _ = try MotionPhotoExporter.export(still: pair.still, movie: pair.movie, to: output)
        let data = try Data(contentsOf: output)
        let stored = try JPEGDecoder.decode(try Data(contentsOf: pair.still))
        let expected = ExifOrientationTransform(exifOrientation: orientation, size: stored.size).apply(stored)
        let rgb = try HEIFDecoder.decode(data)
        #expect(rgb.size == expected.size)
        let difference = zip(rgb.storage, expected.storage).map { abs(Int($0) - Int($1)) }.reduce(0, +) / max(1, rgb.storage.count)
        #expect(difference < 6, "mean difference \(difference) from the still as displayed")
        #expect(try HEIFStructure.parse(data).exif.flatMap { try ExifReader.read(jpeg: $0) }?.orientation == 1)
        // The MP4 keeps the movie's turn (its display matrix) and creation time.
        let info = try #require(try MotionPhoto.read(data))
        let video = Data(data[info.video])
        #expect(try QuickTimeMovie.parse(video).creationDate == LivePhotoPairFixture.creationDate)
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                      "stream_side_data=rotation", "-of", "csv=p=0"], file: video, fileExtension: "mp4")
            let rotation = String(decoding: probe.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(rotation == (orientation == 6 ? "-90" : ""), "rotation \(rotation)")
        }
    }

    @Test func aStillFromAnotherPairIsRefusedAndNothingIsWritten() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder)
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let foreign = try LivePhotoPairFixture.make(in: other, identifier: "11111111-2222-3333-4444-555555555555")
        let output = folder.appendingPathComponent("out.jpg")
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: foreign.still, movie: pair.movie, to: output) }
        // Writing over an input would lose it.
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.still, movie: pair.movie, to: pair.still) }
        #expect(try Data(contentsOf: pair.still).count > 0 && (try MotionPhoto.read(Data(contentsOf: pair.still))) == nil)
        let png = folder.appendingPathComponent("out.png")
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.still, movie: pair.movie, to: png) }
        #expect(!FileManager.default.fileExists(atPath: png.path))
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.movie, movie: pair.movie, to: output) }
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.still, movie: pair.still, to: output) }
        // A movie cut short (its header, written last, lost) is said to be so.
        let cut = folder.appendingPathComponent("cut.mov")
        let whole = try Data(contentsOf: pair.movie)
        try whole.prefix(whole.count / 2).write(to: cut)
        #expect(throws: MotionPhotoError("cut.mov is cut short or unfinished: its movie header (moov) is missing or incomplete")) {
            try MotionPhotoExporter.export(still: pair.still, movie: cut, to: output)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
