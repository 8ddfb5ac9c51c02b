import CaptureCore
import Foundation
@testable import MediaFormats
import OpenCaptureTestSupport
import Testing

/// One frame of a movie as RGB, shown as players show it: ours (MovieWriter) and FFmpeg's own movies.
@Suite struct MovieFrameDecoderTests {
    /// Mean R, G, B of `image`'s pixels in `rows` × `columns`.
    static func mean(_ image: Raster<UInt8>, rows: Range<Int>, columns: Range<Int>) -> [Int] {
        var sums = [0, 0, 0]
        for y in rows { for x in columns { for c in 0..<3 { sums[c] += Int(image[x, y, c]) } } }
        return sums.map { $0 / (rows.count * columns.count) }
    }

    /// Mean absolute difference of two RGB rasters' samples.
    static func meanDifference(_ a: Raster<UInt8>, _ b: Raster<UInt8>) -> Double {
        Double(zip(a.storage, b.storage).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.storage.count)
    }

    /// A movie of ours turned 90° clockwise, as an upright phone's (`HalvesMovieFixture`: red|blue, then grey). The first
    /// frame comes out portrait with the stored left half (red) on top; a later time gives the grey frame.
    @Test(arguments: MovieCodec.allCases) func ourMovieComesOutTurnedAsItsMatrixSays(codec: MovieCodec) throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("turned.mov")
        try HalvesMovieFixture.make(at: url, codec: codec, rotation: 90)

        let first = try MovieFrameDecoder.frame(contentsOf: url)
        #expect(first.width == 32 && first.height == 64 && first.channels == 3)
        let top = Self.mean(first, rows: 2..<28, columns: 4..<28), bottom = Self.mean(first, rows: 36..<62, columns: 4..<28)
        #expect(top[0] > 220 && top[1] < 60 && top[2] < 40, "top \(top)")
        #expect(bottom[2] > 220 && bottom[0] < 40 && bottom[1] < 40, "bottom \(bottom)")
        let later = try MovieFrameDecoder.frame(contentsOf: url, at: 0.1)
        #expect(later.width == 32 && later.height == 64)
        #expect(later.storage.allSatisfy { abs(Int($0) - 128) <= 6 }, "the second frame (1/15 s) is grey")
        #expect(try MovieFrameDecoder.frame(contentsOf: url, at: 60).storage.allSatisfy { abs(Int($0) - 128) <= 6 },
                "past the end: the last frame")
    }

    /// Movies the `ffmpeg` tool makes — H.264 in MPEG-4 turned by its `rotate` tag (a quarter turn counter-clockwise), and
    /// 10-bit HEVC in QuickTime — decode to the picture FFmpeg itself shows (its own autorotated RGB).
    @Test(.enabled(if: ExternalTool.ffmpeg.isInstalled, "ffmpeg not installed"))
    func ffmpegsMoviesDecodeAsFFmpegShowsThem() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=64x32:r=10:d=1",
                      "-vf", "drawbox=x=32:y=0:w=32:h=32:color=blue:t=fill"]
        let plain = folder.appendingPathComponent("plain.mp4"), turned = folder.appendingPathComponent("turned.mp4")
        let deep = folder.appendingPathComponent("deep.mov")
        for arguments in [source + ["-c:v", "libx264", "-pix_fmt", "yuv420p", plain.path],
                          ["-v", "error", "-y", "-i", plain.path, "-c", "copy", "-metadata:s:v:0", "rotate=90", turned.path],
                          source + ["-c:v", "libx265", "-x265-params", "log-level=none", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", deep.path]] {
            let run = try ExternalTool.ffmpeg.run(arguments)
            try #require(run.status == 0, "\(run.errorOutput)")
        }
        for (movie, size) in [(turned, Size(width: 32, height: 64)), (deep, Size(width: 64, height: 32))] {
            let ours = try MovieFrameDecoder.frame(contentsOf: movie)
            let png = folder.appendingPathComponent(movie.lastPathComponent + ".png")
            let run = try ExternalTool.ffmpeg.run(["-v", "error", "-y", "-i", movie.path, "-frames:v", "1", "-pix_fmt", "rgb24", png.path])
            try #require(run.status == 0, "\(run.errorOutput)")
            let theirs = try PNGCodec.decode(try Data(contentsOf: png))
            #expect(ours.size == size && theirs.size == size && theirs.channels == 3, "\(movie.lastPathComponent)")
            #expect(Self.meanDifference(ours, theirs) < 2.5, "\(movie.lastPathComponent): \(Self.meanDifference(ours, theirs))")
        }
        // The rotate tag turns it a quarter counter-clockwise: the stored left half (red) is at the bottom.
        let shown = try MovieFrameDecoder.frame(contentsOf: turned)
        #expect(Self.mean(shown, rows: 40..<60, columns: 4..<28)[0] > 220 && Self.mean(shown, rows: 4..<24, columns: 4..<28)[2] > 220)
    }

    /// Movies coded in RGB or with alpha decode as FFmpeg shows them: QuickTime Animation and PNG frames (packed RGB24),
    /// planar RGB (an RGB source through lossless FFV1 or x264's RGB mode, what `-c:v libvpx-vp9` also makes of one) and
    /// ProRes 4444 with its alpha plane (shown opaque). Each was refused as "sample format 71" (a number): the library
    /// imports them, and the studio's thumbnail of each failed.
    @Test(.enabled(if: ExternalTool.ffmpeg.isInstalled, "ffmpeg not installed"))
    func rgbAndAlphaMoviesDecodeAsFFmpegShowsThem() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:s=64x32:r=10:d=1",
                      "-vf", "drawbox=x=32:y=0:w=32:h=32:color=blue:t=fill,drawbox=x=0:y=16:w=16:h=16:color=0x30C060:t=fill"]
        let movies: [(String, [String])] = [("qtrle.mov", ["-c:v", "qtrle"]), ("png.mov", ["-c:v", "png"]),
                                            ("bgr0.mov", ["-c:v", "ffv1", "-pix_fmt", "gbrp"]),
                                            ("gbrp.mp4", ["-c:v", "libx264rgb", "-qp", "0"]),
                                            ("gbrp10.mov", ["-c:v", "ffv1", "-pix_fmt", "gbrp10le"]),
                                            ("bgra.mov", ["-c:v", "qtrle", "-pix_fmt", "argb"]),
                                            ("prores4444.mov", ["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"])]
        for (name, codec) in movies {
            let movie = folder.appendingPathComponent(name)
            let made = try ExternalTool.ffmpeg.run(source + codec + [movie.path])
            guard made.status == 0 else { continue }    // an FFmpeg built without that encoder
            let ours = try MovieFrameDecoder.frame(contentsOf: movie)
            let png = folder.appendingPathComponent(name + ".png")
            let run = try ExternalTool.ffmpeg.run(["-v", "error", "-y", "-i", movie.path, "-frames:v", "1", "-pix_fmt", "rgb24", png.path])
            try #require(run.status == 0, "\(run.errorOutput)")
            let theirs = try PNGCodec.decode(try Data(contentsOf: png))
            #expect(ours.size == Size(width: 64, height: 32) && theirs.size == ours.size, "\(name)")
            #expect(Self.meanDifference(ours, theirs) < 2.5, "\(name): \(Self.meanDifference(ours, theirs))")
            let red = Self.mean(ours, rows: 2..<14, columns: 4..<28)
            #expect(red[0] > 220 && red[1] < 40 && red[2] < 40, "\(name): \(red)")
        }
    }

    /// Saturated red, green and blue side by side, in each third of a `width`×`height` frame.
    static func primaries(width: Int, height: Int) -> Raster<UInt8> {
        var image = Raster<UInt8>(width: width, height: height, channels: 3, repeating: 0)
        for y in 0..<height { for x in 0..<width { image[x, y, min(2, 3 * x / width)] = 255 } }
        return image
    }

    /// A movie keeps its colours: frames converted in the matrix of their size (BT.709 for HD, BT.601 for SD) and
    /// tagged with it decode, by FFmpeg's own tool and by `MovieFrameDecoder`, to the saturated red, green and blue
    /// they were — within a few levels, not red with green ≈ 25 (BT.601 samples read as BT.709). A frame in the other
    /// matrix is refused.
    @Test(arguments: [(1280, 720, YCbCrMatrix.bt709, "bt709"), (96, 64, .bt601, "smpte170m")])
    func saturatedColoursSurviveAMovie(width: Int, height: Int, matrix: YCbCrMatrix, ffmpegName: String) throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("primaries.mov")
        var settings = MovieSettings(codec: .h264, width: width, height: height, frameRate: 15)
        settings.preset = "ultrafast"
        settings.crf = 12
        #expect(settings.yCbCrMatrix == matrix)
        let writer = try MovieWriter(url: url, settings: settings)
        let image = Self.primaries(width: width, height: height)
        let other: YCbCrMatrix = matrix == .bt709 ? .bt601 : .bt709
        let wrong = try #require(PixelBuffer.yCbCr420(from: image, fullRange: false, matrix: other))
        #expect(throws: MediaFormatError.self) { try writer.append(wrong, at: 0) }
        for index in 0..<2 {
            try writer.append(try #require(PixelBuffer.yCbCr420(from: image, fullRange: false, matrix: settings.yCbCrMatrix)),
                              at: Double(index) / 15)
        }
        try writer.finish()

        var decoded = [("MovieFrameDecoder", try MovieFrameDecoder.frame(contentsOf: url))]
        if ExternalTool.ffmpeg.isInstalled {
            let png = folder.appendingPathComponent("frame.png")
            let run = try ExternalTool.ffmpeg.run(["-v", "error", "-y", "-i", url.path, "-frames:v", "1", "-pix_fmt", "rgb24", png.path])
            try #require(run.status == 0, "\(run.errorOutput)")
            decoded.append(("ffmpeg", try PNGCodec.decode(try Data(contentsOf: png))))
        }
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=color_space",
                                                      "-of", "csv=p=0", url.path])
            #expect(String(decoding: probe.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == ffmpegName)
        }
        for (reader, frame) in decoded {
            try #require(frame.width == width && frame.height == height, "\(reader)")
            for third in 0..<3 {
                // The middle of each third, away from the chroma edges between them.
                let columns = (third * width / 3 + width / 12)..<((third + 1) * width / 3 - width / 12)
                let got = Self.mean(frame, rows: height / 4..<(3 * height / 4), columns: columns)
                let expected = (0..<3).map { $0 == third ? 255 : 0 }
                #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 4 }, "\(reader), \(matrix): \(got) for \(expected)")
            }
        }
    }

    /// Files that are no movie, or whose video cannot be decoded, are typed errors (and no frame).
    @Test func badMoviesAreTypedErrors() throws {
        let folder = try ExternalTool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("good.mov")
        try HalvesMovieFixture.make(at: good)
        let data = try Data(contentsOf: good)

        // The media data zeroed: the header reads, no frame decodes.
        let mdat = try #require(try BMFFReader(data).boxes().first { $0.type == "mdat" })
        var zeroed = data
        zeroed.replaceSubrange(mdat.body, with: Data(count: mdat.body.count))
        let cases: [(String, Data, (MediaFormatError) -> Bool)] = [
            ("text.mov", Data("not a movie at all".utf8), { if case .invalidImage = $0 { true } else { false } }),
            ("empty.mov", Data(), { if case .invalidImage = $0 { true } else { false } }),
            ("cut.mov", data.prefix(data.count / 2), { if case .invalidImage = $0 { true } else { false } }),
            ("zeroed.mov", zeroed, { if case .decoderFailed = $0 { true } else { false } }),
            // Only QuickTime/MP4 from plain files: a playlist naming the good movie is not followed, an image is no movie.
            ("playlist.mov", Data("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n\(good.path)\n#EXT-X-ENDLIST\n".utf8),
             { if case .invalidImage = $0 { true } else { false } }),
            ("image.mov", try PNGCodec.encode(Raster<UInt8>(width: 8, height: 8, channels: 3, repeating: 200)),
             { if case .invalidImage = $0 { true } else { false } }),
        ]
        for (name, bytes, expected) in cases {
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            #expect(performing: { try MovieFrameDecoder.frame(contentsOf: url) }, throws: { error in
                guard let error = error as? MediaFormatError else { return false }
                return expected(error) && "\(error)".contains(name)
            })
        }
        #expect(throws: MediaFormatError.self) { try MovieFrameDecoder.frame(contentsOf: folder.appendingPathComponent("missing.mov")) }
    }

    /// The display matrices players meet, read as EXIF orientations.
    @Test func displayMatricesReadAsOrientations() {
        let one: Int32 = 0x10000
        #expect(DisplayMatrix.identity.exifOrientation == 1 && !DisplayMatrix.identity.swapsSides)
        #expect(DisplayMatrix(a: 0, b: one, c: -one, d: 0).exifOrientation == 6, "an iPhone's portrait movie: 90° clockwise")
        #expect(DisplayMatrix(a: 0, b: -one, c: one, d: 0).exifOrientation == 8, "FFmpeg's rotate=90: 90° counter-clockwise")
        #expect(DisplayMatrix(a: -one, b: 0, c: 0, d: -one).exifOrientation == 3)
        #expect(DisplayMatrix(a: -one, b: 0, c: 0, d: one).exifOrientation == 2)
        #expect(DisplayMatrix(a: 0, b: one, c: -one, d: 0).swapsSides)
        #expect(DisplayMatrix(a: 46341, b: 46341, c: -46341, d: 46341).exifOrientation == 1, "45° is shown as stored")
        #expect(DisplayMatrix([0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30])?.exifOrientation == 6)
        #expect(DisplayMatrix([1, 2, 3]) == nil)
    }
}
