import CaptureCore
import Foundation
@testable import MediaFormats
import OpenCaptureTestSupport
import Testing

@Suite struct MovieFormatsTests {
    @Test func pairingAtomsReadBackAndTheMovieStillParses() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, movie) = try LivePhotoPairFixture.make(in: folder, stillImageTime: 0.4)
        let data = try Data(contentsOf: movie)
        #expect(FileKind.of(data) == .movie)
        let parsed = try QuickTimeMovie.parse(data)
        #expect(parsed.brand == "qt  ")
        #expect(abs(parsed.duration - 1) < 0.1, "duration \(parsed.duration)")
        #expect(parsed.tracks.map(\.handler).sorted() == ["meta", "soun", "vide"])
        #expect(parsed.tracks.first { $0.handler == "vide" }.map { [$0.format, "\($0.width)", "\($0.height)"] } == ["avc1", "64", "48"])
        #expect(parsed.tracks.first { $0.handler == "meta" }?.format == "mebx")
        #expect(parsed.pairing.contentIdentifier == LivePhotoPairFixture.identifier)
        #expect(abs((parsed.pairing.stillImageTime ?? -1) - 0.4) < 0.002)
        #expect(parsed.creationDate == LivePhotoPairFixture.creationDate)
        if ExternalTool.exiftool.isInstalled {
            let tags = try ExternalTool.exiftool.run(["-s", "-ContentIdentifier", "-CreateDate", "-TrackCreateDate", "-MediaCreateDate",
                                                      "-a", "-n"], file: data, fileExtension: "mov")
            let text = String(decoding: tags.standardOutput, as: UTF8.self)
            #expect(text.contains(LivePhotoPairFixture.identifier))
            // The movie's, every track's (the still-image-time track's too) and every medium's creation time.
            let dates = text.split(separator: "\n").filter { $0.contains("CreateDate") }
            #expect(dates.count == 7, "\(dates)")
            #expect(dates.allSatisfy { $0.hasSuffix("2026:03:01 08:30:00") }, "\(dates)")
        }
    }

    /// FFmpeg (`-movflags use_metadata_tags`, and `MovieWriter`) puts movie metadata in `udta/meta`, an ISO full box:
    /// the pairing reader finds a content identifier there too.
    @Test func metadataInUserDataIsRead() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = MovieSettings(codec: .h264, width: 64, height: 48, frameRate: 15)
        settings.preset = "ultrafast"
        settings.metadata = [(LivePhotoMovieAtoms.contentIdentifierKey, "AAAAAAAA-48E0-4C56-BE7F-4CE2F3402474"),
                             ("com.apple.quicktime.make", "OpenCapture")]
        let url = folder.appendingPathComponent("user-data.mov")
        let writer = try MovieWriter(url: url, settings: settings)
        let frame = Raster<UInt8>(width: 64, height: 48, channels: 3, repeating: 90)
        for index in 0..<3 { try writer.append(PixelBuffer.yCbCr420(from: frame, fullRange: false, matrix: settings.yCbCrMatrix)!, at: Double(index) / 15) }
        try writer.finish()
        let data = try Data(contentsOf: url)
        let pairing = try LivePhotoMovieAtoms.read(data)
        #expect(pairing.contentIdentifier == "AAAAAAAA-48E0-4C56-BE7F-4CE2F3402474")
        #expect(pairing.metadata["com.apple.quicktime.make"] == "OpenCapture")
        #expect(try QuickTimeMovie.parse(data).creationDate == nil, "no creation time was given")
        // Pairing atoms added to it win over the user data's keys, though they come after it.
        let paired = try LivePhotoMovieAtoms.pair(data, metadata: [(LivePhotoMovieAtoms.contentIdentifierKey, "BBBBBBBB-0000-0000-0000-000000000000")],
                                                  stillImageTime: 0.1)
        #expect(try LivePhotoMovieAtoms.read(paired).contentIdentifier == "BBBBBBBB-0000-0000-0000-000000000000")
        #expect(try LivePhotoMovieAtoms.read(paired).metadata["com.apple.quicktime.make"] == "OpenCapture")
    }

    /// A 64-bit creation time past any date string (a crafted header) is no date, not a trap; dates beyond the years
    /// 0…9999 are written at those bounds.
    @Test func creationTimesOutOfRangeAreNoDate() throws {
        var movie = BMFFWriter()
        movie.box("ftyp") { $0.fourCC("qt  "); $0.u32(0x200); $0.fourCC("qt  ") }
        movie.box("moov") { moov in
            moov.box("mvhd") { h in
                h.u32(0x0100_0000)                                        // version 1
                h.u32(0xFFFF_FFFF); h.u32(0xFFFF_FFFF); h.u32(0); h.u32(0)  // creation, modification
                h.u32(600); h.u32(0); h.u32(600)                           // timescale, duration
                h.append([UInt8](repeating: 0, count: 80))
            }
        }
        #expect(try QuickTimeMovie.parse(Data(movie.bytes)).creationDate == nil)
        #expect(ExifDate(date: Date(timeIntervalSince1970: 1e300), offsetSeconds: 3600).dateTime == "9999:12:31 23:59:59")
        #expect(ExifDate(date: Date(timeIntervalSince1970: -1e300), offsetSeconds: Int.min).dateTime == "0000:01:01 00:00:00")
        #expect(ExifDate(date: Date(timeIntervalSince1970: .nan), offsetSeconds: 0).dateTime.count == 19)
        #expect(ExifDate.isoUTC(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.000000Z")
    }

    @Test func appleMakerNoteRoundTrips() {
        let bytes = AppleMakerNote.bytes(contentIdentifier: "ABC")
        #expect(Array(bytes.prefix(9)) == Array("Apple iOS".utf8))
        #expect(AppleMakerNote.contentIdentifier(in: bytes) == "ABC")
        #expect(AppleMakerNote.contentIdentifier(in: Array(bytes.prefix(20))) == nil, "truncated")
        #expect(AppleMakerNote.contentIdentifier(in: [UInt8](repeating: 0, count: 40)) == nil)
    }

    @Test func motionPhotoWrapsAVideoAReaderFinds() throws {
        var image = Raster<UInt8>(width: 32, height: 32, channels: 3)
        for i in image.storage.indices { image.storage[i] = UInt8(i & 255) }
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        let jpeg = try JPEGEncoder.encode(image, quality: 80, exif: exif)
        // An MPEG-4 file's start (its `ftyp` box), then bytes.
        let video = Data([0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0] + (0..<5000).map { UInt8($0 & 255) })
        let combined = try MotionPhoto.make(jpeg: jpeg, video: video, presentationTimestampUs: 1_234_567)
        let info = try #require(try MotionPhoto.read(combined))
        #expect(combined[info.video] == video)
        #expect(info.presentationTimestampUs == 1_234_567)
        #expect(try ExifReader.read(jpeg: combined).make == "OpenCapture", "EXIF kept")
        #expect(try JPEGDecoder.decode(combined).storage == JPEGDecoder.decode(jpeg).storage, "the same picture")
        #expect(try MotionPhoto.read(jpeg) == nil)
        // Cut short: an error, not a range into the still.
        #expect(throws: MediaFormatError.self) { try MotionPhoto.read(combined.prefix(combined.count - 1000)) }
        // The XMP in its xpacket wrapper (exiftool warns without one).
        let packet = MotionPhoto.xmpPacket(videoLength: 1, presentationTimestampUs: 0, heic: false)
        #expect(packet.hasPrefix("<?xpacket begin=\"\u{FEFF}\"") && packet.hasSuffix("<?xpacket end=\"w\"?>"))
        // Made again from a Motion Photo: its XMP is replaced, not doubled.
        let again = try MotionPhoto.make(jpeg: combined.prefix(info.video.lowerBound), video: video, presentationTimestampUs: 5)
        #expect(try MotionPhoto.read(again)?.presentationTimestampUs == 5)
        #expect(again.count == combined.count - 12, "one XMP packet: only the two timestamps' digits differ")
        // A portrait JPEG's depth image and the MPF index that points at it are left out: no index into the video.
        let portrait = try MultiPictureIndex.assemble(primary: jpeg, secondaries: [JPEGEncoder.encode(Raster<UInt8>(width: 8, height: 8, channels: 1, repeating: 40))])
        #expect(try JPEGSegments.hasMPF(in: portrait))
        let motion = try MotionPhoto.make(jpeg: portrait, video: video, presentationTimestampUs: 0)
        #expect(try !JPEGSegments.hasMPF(in: motion))
        #expect(try MotionPhoto.read(motion).map { motion[$0.video] } == video)
        #expect(try JPEGDecoder.decode(motion).storage == JPEGDecoder.decode(jpeg).storage)
    }
}
