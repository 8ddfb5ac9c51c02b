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

    @Test func aStillFromAnotherPairIsRefusedAndNothingIsWritten() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pair = try LivePhotoPairFixture.make(in: folder)
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let foreign = try LivePhotoPairFixture.make(in: other, identifier: "11111111-2222-3333-4444-555555555555")
        let output = folder.appendingPathComponent("out.jpg")
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: foreign.still, movie: pair.movie, to: output) }
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.movie, movie: pair.movie, to: output) }
        #expect(throws: MotionPhotoError.self) { try MotionPhotoExporter.export(still: pair.still, movie: pair.still, to: output) }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
