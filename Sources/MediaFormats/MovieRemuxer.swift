import CFFmpeg
import Foundation

/// Copies a movie's video and audio into another container without re-encoding (libavformat), e.g. a
/// QuickTime Live Photo movie into the MP4 a Motion Photo embeds. Timed-metadata tracks are left out.
public enum MovieRemuxer {
    /// Writes `source`'s audio and video to `destination` as `format` ("mp4" or "mov"); throws `.unsupported`
    /// for a file FFmpeg cannot read or one without video, `.writeFailed` when the destination cannot be written.
    public static func remux(_ source: URL, to destination: URL, format: String = "mp4") throws {
        var error = [CChar](repeating: 0, count: 256)
        let status = source.path.withCString { input in
            destination.path.withCString { output in
                format.withCString { ocav_remux(input, output, $0, &error, Int32(error.count)) }
            }
        }
        guard status == 0 else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if message.contains("cannot create") { throw MediaFormatError.writeFailed("\(destination.path): \(message)") }
            throw MediaFormatError.unsupported("\(source.lastPathComponent): \(message)")
        }
    }
}
