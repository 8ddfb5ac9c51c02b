import CFFmpeg
import CaptureCore
import Foundation

/// Writes a QuickTime movie (H.264 or HEVC video, optional AAC audio) through libavformat and
/// libavcodec. Frames go in as 4:2:0 pixel buffers with their times; the file is written under a
/// temporary name in the destination folder and renamed to its final name by `finish()`, so a
/// failed or cancelled movie leaves nothing under the final name.
///
/// Not thread-safe: use one writer from one queue at a time.
public final class MovieWriter {
    public let settings: MovieSettings
    /// The final location.
    public let url: URL
    private let temporaryURL: URL
    private var writer: OpaquePointer?
    private var lastTime: Int64 = -1
    /// Frames appended so far.
    public private(set) var frameCount = 0

    /// Opens the movie; throws `.writeFailed` when the folder cannot be written, `.unsupported` for a
    /// codec FFmpeg lacks or a size the encoder refuses.
    public init(url: URL, settings: MovieSettings) throws {
        guard settings.width >= 16, settings.height >= 16, settings.width % 2 == 0, settings.height % 2 == 0 else {
            throw MediaFormatError.unsupported("movie frames of \(settings.width)×\(settings.height) (even sides of at least 16 needed)")
        }
        self.settings = settings
        self.url = url
        temporaryURL = FilePlacement.temporaryURL(beside: url, tag: "partial", pathExtension: "mov")
        TemporaryFiles.register(temporaryURL)
        let (primaries, transfer, matrix) = (settings.colorSpace == .displayP3 ? 12 : 1, 13, settings.yCbCrMatrix.code)
        var error = [CChar](repeating: 0, count: 256)
        let keys = settings.metadata.map { strdup($0.key) }, values = settings.metadata.map { strdup($0.value) }
        let creation = settings.creationDate.flatMap { strdup(ExifDate.isoUTC($0)) }
        defer {
            (keys + values).forEach { free($0) }
            free(creation)
        }
        let opened: OpaquePointer? = temporaryURL.path.withCString { path in
            settings.codec.encoderName.withCString { codec in
                settings.preset.withCString { preset in
                    keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { keyPointers in
                        values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                            var p = ocav_params()
                            p.path = path
                            p.codec = codec
                            p.preset = preset
                            p.width = Int32(settings.width)
                            p.height = Int32(settings.height)
                            p.timescale = Int32(settings.timescale)
                            p.frame_rate = Int32(max(1, settings.frameRate))
                            p.crf = Int32(settings.crf)
                            p.threads = Int32(settings.threads)
                            p.audio_rate = Int32(settings.audio?.sampleRate ?? 0)
                            p.audio_channels = Int32(settings.audio?.channels ?? 0)
                            p.audio_bitrate = 96_000
                            p.colour_primaries = Int32(primaries)
                            p.transfer = Int32(transfer)
                            p.matrix = Int32(matrix)
                            p.full_range = settings.fullRange ? 1 : 0
                            p.rotation = Int32(((settings.rotation % 360) + 360) % 360)
                            p.metadata_keys = keyPointers.baseAddress
                            p.metadata_values = valuePointers.baseAddress
                            p.metadata_count = Int32(keys.count)
                            p.creation_time = UnsafePointer(creation)
                            return ocav_open(&p, &error, Int32(error.count))
                        }
                    }
                }
            }
        }
        guard let opened else {
            try? FileManager.default.removeItem(at: temporaryURL)
            let message = Self.text(error)
            if message.contains("cannot create") || message.contains("header") {
                throw MediaFormatError.writeFailed("\(url.path): \(message)")
            }
            throw MediaFormatError.unsupported(message)
        }
        writer = opened
    }

    deinit { cancel() }

    /// Appends a 4:2:0 frame (`420v`, or `420f` when `settings.fullRange`, in `settings.yCbCrMatrix`: a frame whose
    /// `CVImageBufferYCbCrMatrix` attachment names another is refused, `.unsupported`) presented at `time` seconds
    /// from the movie's start; frames at or before the previous one's time are skipped.
    public func append(_ frame: PixelBuffer, at time: Double) throws {
        guard let writer else { throw MediaFormatError.writeFailed("the movie is already finished") }
        if let matrix = CoreVideoAttachment.matrix(of: frame), matrix != settings.yCbCrMatrix {
            throw MediaFormatError.unsupported("a frame in the \(matrix) Y′CbCr matrix in a \(settings.yCbCrMatrix) movie")
        }
        var frame = frame
        if settings.mirrored {
            guard let mirrored = frame.mirroredAsShown(turnedBy: settings.rotation) else {
                throw fail(Array("cannot allocate a mirrored frame".utf8CString))
            }
            frame = mirrored
        }
        // The frame (the mirrored copy may have no other owner) stays alive while FFmpeg reads its planes.
        defer { withExtendedLifetime(frame) {} }
        let expected: FourCC = settings.fullRange ? "420f" : "420v"
        guard frame.width == settings.width, frame.height == settings.height, frame.pixelFormat == expected else {
            throw MediaFormatError.unsupported("a \(frame.width)×\(frame.height) \(frame.pixelFormat) frame in a \(settings.width)×\(settings.height) \(expected) movie")
        }
        let pts = Int64((time * Double(settings.timescale)).rounded())
        guard pts > lastTime else { return }
        lastTime = pts
        var error = [CChar](repeating: 0, count: 256)
        let status = ocav_write_nv12(writer, frame.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self),
                                     Int32(frame.planes[0].bytesPerRow),
                                     frame.baseAddress(ofPlane: 1)!.assumingMemoryBound(to: UInt8.self),
                                     Int32(frame.planes[1].bytesPerRow), pts, &error, Int32(error.count))
        guard status >= 0 else { throw fail(error) }
        frameCount += 1
    }

    /// Appends interleaved 16-bit PCM (the channel count of `settings.audio`); ignored without an audio track.
    public func appendAudio(_ samples: [Int16]) throws {
        guard let writer else { throw MediaFormatError.writeFailed("the movie is already finished") }
        guard let audio = settings.audio, audio.channels > 0 else { return }
        var error = [CChar](repeating: 0, count: 256)
        let status = samples.withUnsafeBufferPointer {
            ocav_write_pcm16(writer, $0.baseAddress, Int32(samples.count / audio.channels), &error, Int32(error.count))
        }
        guard status >= 0 else { throw fail(error) }
    }

    /// Finishes the movie and moves it to `url`; throws (leaving nothing at `url`) if any step fails. The last frame
    /// lasts a frame interval, or until `end` (seconds) when given: a movie cut at a maximum duration inside that
    /// interval, or held to one it reached after frames that never came (as a gap between frames holds the one before).
    @discardableResult
    public func finish(endingAt end: Double? = nil) throws -> URL {
        guard let writer else { throw MediaFormatError.writeFailed("the movie is already finished") }
        self.writer = nil
        var error = [CChar](repeating: 0, count: 256)
        let videoEnd = end.map { $0.isFinite && $0 > 0 ? Int64(($0 * Double(settings.timescale)).rounded()) : 0 } ?? 0
        guard ocav_finish(writer, videoEnd, &error, Int32(error.count)) >= 0 else {
            try? FileManager.default.removeItem(at: temporaryURL)
            throw MediaFormatError.writeFailed("\(url.path): \(Self.text(error))")
        }
        try FilePlacement.moveIntoPlace(temporaryURL, to: url)
        return url
    }

    /// Abandons the movie and deletes its temporary file.
    public func cancel() {
        guard let writer else { return }
        self.writer = nil
        ocav_abort(writer)
        try? FileManager.default.removeItem(at: temporaryURL)
    }

    /// The C string in `buffer` (an FFmpeg call's error message).
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func fail(_ error: [CChar]) -> MediaFormatError {
        cancel()
        return MediaFormatError.writeFailed("\(url.path): \(Self.text(error))")
    }
}
