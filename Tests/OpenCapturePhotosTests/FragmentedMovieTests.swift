import Foundation
import MediaFormats
import Testing
@testable import OpenCapturePhotos

/// A fragmented MP4 (FFmpeg's `-movflags frag_keyframe+empty_moov`, what streaming recorders write) has a `moov` whose
/// `mvhd` says 0 s: its samples are in `moof` fragments after it. `PHAsset.duration` is the movie's real length.
@Suite struct FragmentedMovieTests {
    /// Big-endian box bytes.
    private struct Boxes {
        var bytes: [UInt8] = []
        mutating func u32(_ v: UInt32) { bytes += [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
        mutating func zeros(_ n: Int) { bytes += [UInt8](repeating: 0, count: n) }
        mutating func box(_ type: String, _ body: (inout Boxes) -> Void) {
            var inner = Boxes()
            body(&inner)
            u32(UInt32(8 + inner.bytes.count))
            bytes += Array(type.utf8) + inner.bytes
        }
    }

    /// A 320×240 video track (timescale 15360) in two fragments of 1 s each: the first gives each of its 30 samples'
    /// durations (512) in its `trun`, the second 15 samples of the `tfhd` default (1024). With `mehd`, it says 2.5 s.
    /// With `moovSeconds`, the `moov` holds that much before the fragments (FFmpeg's `-movflags frag_keyframe` without
    /// `empty_moov`), and `mvhd`/`mdhd` say so.
    private func fragmentedMovie(mehdMilliseconds: UInt32? = nil, moovSeconds: UInt32 = 0) -> Data {
        var m = Boxes()
        m.box("ftyp") { $0.bytes += Array("isom".utf8); $0.u32(512); $0.bytes += Array("isomiso5".utf8) }
        m.box("moov") { moov in
            moov.box("mvhd") { b in b.zeros(12); b.u32(1000); b.u32(1000 * moovSeconds); b.u32(0x10000); b.u32(0x01000000); b.zeros(8 + 36 + 24); b.u32(2) }
            moov.box("trak") { trak in
                trak.box("tkhd") { b in b.u32(3); b.zeros(8); b.u32(1); b.zeros(4 + 4 + 8 + 4 + 4 + 36); b.u32(320 << 16); b.u32(240 << 16) }
                trak.box("mdia") { mdia in
                    mdia.box("mdhd") { b in b.zeros(12); b.u32(15360); b.u32(15360 * moovSeconds); b.zeros(4) }
                    mdia.box("hdlr") { b in b.zeros(8); b.bytes += Array("vide".utf8); b.zeros(13) }
                    mdia.box("minf") { minf in
                        minf.box("stbl") { stbl in
                            stbl.box("stsd") { b in b.zeros(4); b.u32(1); b.box("avc1") { $0.zeros(78) } }
                            stbl.box("stsz") { b in b.zeros(12) }
                        }
                    }
                }
            }
            moov.box("mvex") { mvex in
                if let mehdMilliseconds { mvex.box("mehd") { b in b.zeros(4); b.u32(mehdMilliseconds) } }
                mvex.box("trex") { b in b.zeros(4); b.u32(1); b.u32(1); b.u32(0); b.u32(0); b.u32(0) }
            }
        }
        m.box("moof") { moof in
            moof.box("mfhd") { b in b.zeros(4); b.u32(1) }
            moof.box("traf") { traf in
                traf.box("tfhd") { b in b.u32(0x020000); b.u32(1) }
                traf.box("trun") { b in b.u32(0x000301); b.u32(30); b.u32(0); for _ in 0..<30 { b.u32(512); b.u32(1) } }
            }
        }
        m.box("moof") { moof in
            moof.box("mfhd") { b in b.zeros(4); b.u32(2) }
            moof.box("traf") { traf in
                traf.box("tfhd") { b in b.u32(0x020008); b.u32(1); b.u32(1024) }
                traf.box("trun") { b in b.u32(0x000001); b.u32(15); b.u32(0) }
            }
        }
        m.box("mdat") { $0.zeros(45) }
        return Data(m.bytes)
    }

    private func savedDuration(_ movie: Data) throws -> (TimeInterval, Int, Int) {
        let (library, folder) = try PhotoFixtures.library()
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .video, data: movie, options: nil)
        }
        let video = try #require(library.fetchAssets(with: .video, options: nil).firstObject)
        return (video.duration, video.pixelWidth, video.pixelHeight)
    }

    @Test func aFragmentedMovieTakesItsFragmentsLength() throws {
        let (duration, width, height) = try savedDuration(fragmentedMovie())
        #expect(abs(duration - 2) < 1e-9, "duration \(duration)")
        #expect(width == 320 && height == 240)
    }

    /// The fragments' samples are the track's frames too (`opencapture inspect` divides them by the duration for fps).
    @Test func aFragmentedMoviesFramesAreCounted() throws {
        let movie = try QuickTimeMovie.parse(fragmentedMovie())
        #expect(movie.tracks.map(\.sampleCount) == [45])
    }

    @Test func aMovieWithSamplesBeforeItsFragmentsCountsBoth() throws {
        #expect(abs(try savedDuration(fragmentedMovie(moovSeconds: 3)).0 - 5) < 1e-9)
    }

    @Test func aFragmentedMovieWithAFragmentDurationTakesIt() throws {
        #expect(abs(try savedDuration(fragmentedMovie(mehdMilliseconds: 2500)).0 - 2.5) < 1e-9)
    }
}
