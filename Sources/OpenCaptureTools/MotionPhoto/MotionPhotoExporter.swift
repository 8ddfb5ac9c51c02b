import CaptureCore
import Foundation
import MediaFormats

/// Turns a Live Photo pair (OpenCapture's or an iPhone's: a JPEG or HEIC still and its QuickTime movie) into a
/// Google/Samsung Motion Photo: a JPEG with the `GCamera` Motion Photo XMP and the movie, remuxed to MP4 without
/// re-encoding, appended (OpenCapture addition). The still's moment carries over from the movie's
/// still-image-time track. A HEIC still is decoded (orientation applied) and written as a JPEG with its EXIF.
public enum MotionPhotoExporter {
    /// What an export wrote.
    public struct Summary: Sendable {
        public var bytes: Int
        public var videoBytes: Int
        /// The still's moment in the video, seconds; nil when the movie does not say.
        public var presentationTime: Double?
        /// The pair's content identifier, when both halves carry it.
        public var contentIdentifier: String?
    }

    /// Writes the Motion Photo of `still` + `movie` to `output` (temporary name, then rename). Throws
    /// `MotionPhotoError` for unreadable files, a still that is not a JPEG or HEIC, a movie without video, or a
    /// still and movie whose content identifiers differ.
    public static func export(still: URL, movie: URL, to output: URL) throws -> Summary {
        let stillData = try AtomicFile.read(still)
        let movieData = try AtomicFile.read(movie)
        guard FileKind.of(movieData) == .movie, let parsed = try? QuickTimeMovie.parse(movieData) else {
            throw MotionPhotoError("\(movie.lastPathComponent) is not a QuickTime or MP4 movie")
        }
        guard parsed.tracks.contains(where: { $0.handler == "vide" }) else { throw MotionPhotoError("\(movie.lastPathComponent) has no video track") }
        let (jpeg, stillID) = try jpegStill(stillData, name: still.lastPathComponent)
        if let stillID, let movieID = parsed.pairing.contentIdentifier, stillID != movieID {
            throw MotionPhotoError("\(still.lastPathComponent) and \(movie.lastPathComponent) are not a pair: content identifiers \(stillID) and \(movieID)")
        }
        try AtomicFile.checkDestination(output)
        let folder = output.deletingLastPathComponent()
        let mp4URL = folder.appendingPathComponent(".\(output.lastPathComponent).video-\(UUID().uuidString.prefix(8)).mp4")
        defer { try? FileManager.default.removeItem(at: mp4URL) }
        do {
            try MovieRemuxer.remux(movie, to: mp4URL, format: "mp4")
        } catch {
            throw MotionPhotoError("cannot convert \(movie.lastPathComponent) to MP4: \(error)")
        }
        let mp4 = try Data(contentsOf: mp4URL)
        let stamp = parsed.pairing.stillImageTime.map { Int64(($0 * 1e6).rounded()) } ?? -1
        let combined = try MotionPhoto.make(jpeg: jpeg, video: mp4, presentationTimestampUs: stamp)
        try AtomicFile.write(combined, to: output)
        return Summary(bytes: combined.count, videoBytes: mp4.count, presentationTime: parsed.pairing.stillImageTime,
                       contentIdentifier: stillID ?? parsed.pairing.contentIdentifier)
    }

    /// The still as JPEG bytes, with its content identifier if it carries one.
    private static func jpegStill(_ data: Data, name: String) throws -> (Data, String?) {
        switch FileKind.of(data) {
        case .jpeg:
            return (data, (try? ExifReader.read(jpeg: data))?.appleContentIdentifier)
        case .heif:
            do {
                let structure = try HEIFStructure.parse(data)
                var exif = structure.exif.flatMap { try? ExifReader.read(jpeg: $0) }
                let rgb = try HEIFDecoder.decode(data)          // as displayed: irot/imir applied
                exif?.orientation = 1
                exif?.pixelXDimension = rgb.width
                exif?.pixelYDimension = rgb.height
                let jpeg = try JPEGEncoder.encode(rgb, quality: 92, exif: exif, iccProfile: structure.iccProfile)
                return (jpeg, exif?.appleContentIdentifier)
            } catch let error as MediaFormatError {
                throw MotionPhotoError("cannot read \(name): \(error)")
            }
        default:
            throw MotionPhotoError("\(name) is not a JPEG or HEIC still")
        }
    }
}

