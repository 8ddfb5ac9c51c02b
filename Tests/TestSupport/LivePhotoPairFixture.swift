import CaptureCore
import Foundation
import MediaFormats

/// A small Live Photo pair made with MediaFormats' own writers: a JPEG still with the content identifier
/// in its Apple MakerNote and a 64×48, 1 s H.264 + AAC movie with the pairing atoms.
public enum LivePhotoPairFixture {
    public static let identifier = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    /// The movie's creation time (2026-03-01 08:30 UTC).
    public static let creationDate = Date(timeIntervalSince1970: 1_772_353_800)

    /// The pair in `folder`; the still's EXIF says `orientation` (its pixels are the same whatever it says), the
    /// movie's display matrix turns it `rotation` degrees clockwise. With `pairingAtoms` false the movie is a plain
    /// one (no content identifier, no still-image time), as a video from another camera.
    public static func make(in folder: URL, identifier: String = identifier, stillImageTime: Double = 0.5,
                            orientation: Int = 1, rotation: Int = 0, pairingAtoms: Bool = true) throws -> (still: URL, movie: URL) {
        var image = Raster<UInt8>(width: 64, height: 48, channels: 3)
        for y in 0..<48 { for x in 0..<64 { for c in 0..<3 { image.storage[(y * 64 + x) * 3 + c] = UInt8((x * 4 + y * 3 + c * 70) & 255) } } }
        var exif = ExifMetadata()
        exif.make = "OpenCapture"
        exif.appleContentIdentifier = identifier
        exif.orientation = orientation
        let still = folder.appendingPathComponent("IMG_0001.JPG")
        try JPEGEncoder.encode(image, quality: 90, exif: exif).write(to: still)
        var settings = MovieSettings(codec: .h264, width: 64, height: 48, frameRate: 15)
        settings.audio = (48_000, 1)
        settings.preset = "ultrafast"
        settings.creationDate = creationDate
        settings.rotation = rotation
        let unpaired = folder.appendingPathComponent("unpaired.mov")
        let writer = try MovieWriter(url: unpaired, settings: settings)
        for frame in 0..<15 {
            var shifted = image
            for i in shifted.storage.indices { shifted.storage[i] &+= UInt8(frame * 8) }
            try writer.append(PixelBuffer.yCbCr420(from: shifted, fullRange: false, matrix: settings.yCbCrMatrix)!, at: Double(frame) / 15)
            try writer.appendAudio((0..<3200).map { Int16(clamping: Int(3000 * sin(Double(frame * 3200 + $0) * 0.05))) })
        }
        try writer.finish()
        let movie = folder.appendingPathComponent("IMG_0001.MOV")
        guard pairingAtoms else {
            try FileManager.default.moveItem(at: unpaired, to: movie)
            return (still, movie)
        }
        let paired = try LivePhotoMovieAtoms.pair(try Data(contentsOf: unpaired),
                                                  metadata: [(LivePhotoMovieAtoms.contentIdentifierKey, identifier)],
                                                  stillImageTime: stillImageTime)
        try FileManager.default.removeItem(at: unpaired)
        try paired.write(to: movie)
        return (still, movie)
    }
}
