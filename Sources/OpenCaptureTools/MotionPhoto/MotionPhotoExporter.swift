import CaptureCore
import Foundation
import MediaFormats

/// Turns a Live Photo pair (OpenCapture's or an iPhone's: a JPEG or HEIC still and its QuickTime movie) into a
/// Google/Samsung Motion Photo: the still with the `GCamera` Motion Photo XMP and the movie, remuxed to MP4 without
/// re-encoding, appended (OpenCapture addition). The still's moment carries over from the movie's
/// still-image-time track. The output is a JPEG, or a HEIC when its name ends in `.heic`/`.heif` (the video then
/// in a top-level `mpvd` box). A still in the other format is decoded (orientation applied) and encoded anew with
/// its EXIF and colour profile; a JPEG still written as JPEG keeps its bytes. Depth and other auxiliary images
/// of a HEIC still are not carried over.
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
    /// `MotionPhotoError` for an output not named .jpg/.jpeg/.heic/.heif or naming an input, unreadable files, a still that is not a JPEG or HEIC, a movie without video, or a
    /// still and movie whose content identifiers differ. Without `replacing`, a file at `output` when the Motion Photo is
    /// placed is kept and this throws a `FileAccessError`.
    public static func export(still: URL, movie: URL, to output: URL, replacing: Bool = true) throws -> Summary {
        let kind = output.pathExtension.lowercased()
        guard ["jpg", "jpeg", "heic", "heif"].contains(kind) else {
            throw MotionPhotoError("\(output.lastPathComponent): a Motion Photo is a .jpg or a .heic file")
        }
        guard ![still, movie].contains(where: { AtomicFile.isSameFile($0, output) }) else {
            throw MotionPhotoError("\(output.lastPathComponent) is one of the inputs; write the Motion Photo to another file")
        }
        let stillData = try AtomicFile.read(still)
        let movieData = try AtomicFile.read(movie)
        guard FileKind.of(movieData) == .movie else { throw MotionPhotoError("\(movie.lastPathComponent) is not a QuickTime or MP4 movie") }
        let parsed: QuickTimeMovie
        do {
            parsed = try QuickTimeMovie.parse(movieData)
        } catch let error as MediaFormatError {
            // A movie cut short loses its header (written last) or a box runs past the end.
            throw MotionPhotoError(error == .truncated || error == .invalidImage("no moov box")
                ? "\(movie.lastPathComponent) is cut short or unfinished: its movie header (moov) is missing or incomplete"
                : "\(movie.lastPathComponent) is a damaged movie (\(error))")
        }
        guard parsed.videoTrack != nil else { throw MotionPhotoError("\(movie.lastPathComponent) has no video track") }
        let heicOutput = kind == "heic" || kind == "heif"
        let stillID = try contentIdentifier(of: stillData, name: still.lastPathComponent)
        if let stillID, let movieID = parsed.pairing.contentIdentifier, stillID != movieID {
            throw MotionPhotoError("\(still.lastPathComponent) and \(movie.lastPathComponent) are not a pair: content identifiers \(stillID) and \(movieID)")
        }
        try AtomicFile.checkDestination(output)
        let mp4URL = FilePlacement.temporaryURL(beside: output, tag: "video", pathExtension: "mp4")
        TemporaryFiles.register(mp4URL)
        defer {
            try? FileManager.default.removeItem(at: mp4URL)
            TemporaryFiles.release(mp4URL)
        }
        do {
            try MovieRemuxer.remux(movie, to: mp4URL, format: "mp4")
        } catch {
            throw MotionPhotoError("cannot convert \(movie.lastPathComponent) to MP4: \(error)")
        }
        let mp4 = try Data(contentsOf: mp4URL)
        let stamp = parsed.pairing.stillImageTime.map { Int64(($0 * 1e6).rounded()) } ?? -1
        let combined: Data
        do {
            if heicOutput {
                let heic = try heicStill(stillData, xmp: MotionPhoto.heicXMP(videoLength: mp4.count, presentationTimestampUs: stamp))
                combined = try MotionPhoto.appendVideo(mp4, toHEIC: heic)
            } else {
                combined = try MotionPhoto.make(jpeg: jpegStill(stillData), video: mp4, presentationTimestampUs: stamp)
            }
        } catch let error as MediaFormatError {
            throw MotionPhotoError("cannot read \(still.lastPathComponent): \(error)")
        }
        try AtomicFile.write(combined, to: output, replacing: replacing)
        return Summary(bytes: combined.count, videoBytes: mp4.count, presentationTime: parsed.pairing.stillImageTime,
                       contentIdentifier: stillID ?? parsed.pairing.contentIdentifier)
    }

    /// The still's Apple content identifier, if it carries one; throws unless it is a JPEG or HEIC.
    private static func contentIdentifier(of data: Data, name: String) throws -> String? {
        switch FileKind.of(data) {
        case .jpeg: break
        case .heif:
            guard (try? HEIFStructure.parse(data)) != nil else { throw MotionPhotoError("cannot read \(name): not a valid HEIF file") }
        default: throw MotionPhotoError("\(name) is not a JPEG or HEIC still")
        }
        return ExifReader.read(photo: data)?.appleContentIdentifier
    }

    /// The still decoded as displayed (orientation applied), with its EXIF (orientation reset, dimensions updated)
    /// and ICC profile.
    private static func decoded(_ data: Data) throws -> (rgb: Raster<UInt8>, exif: ExifMetadata?, icc: Data?) {
        let heif = FileKind.of(data) == .heif
        let structure = heif ? try HEIFStructure.parse(data) : nil
        var exif = heif ? structure?.exif.flatMap { try? ExifReader.read(jpeg: $0) } : try? ExifReader.read(jpeg: data)
        // libheif turns a HEIC as its irot/imir say; a JPEG's EXIF orientation is turned here.
        var rgb = heif ? try HEIFDecoder.decode(data) : try JPEGDecoder.decode(data)
        if !heif, let orientation = exif?.orientation {
            rgb = ExifOrientationTransform(exifOrientation: orientation, size: rgb.size).apply(rgb)
        }
        exif?.orientation = 1
        exif?.pixelXDimension = rgb.width
        exif?.pixelYDimension = rgb.height
        return (rgb, exif, heif ? structure?.iccProfile : try JPEGSegments.iccProfile(in: data))
    }

    /// The still as JPEG bytes: a JPEG as it is, a HEIC decoded and encoded.
    private static func jpegStill(_ data: Data) throws -> Data {
        if FileKind.of(data) == .jpeg { return data }
        let still = try decoded(data)
        return try JPEGEncoder.encode(still.rgb, quality: 92, exif: still.exif, iccProfile: still.icc)
    }

    /// The still as HEIC bytes carrying `xmp`: decoded and encoded at quality 0.92, in Display P3 when its
    /// profile says so, else sRGB.
    private static func heicStill(_ data: Data, xmp: Data) throws -> Data {
        let still = try decoded(data)
        var options = HEIFEncodingOptions()
        options.quality = 0.92
        options.exif = still.exif
        options.xmp = xmp
        options.colorSpace = ColorSpace.declared(iccProfile: still.icc)
        return try HEIFEncoder.encode(still.rgb, options: options)
    }
}

