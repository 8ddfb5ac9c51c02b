import CaptureCore
import Foundation
import MediaFormats

/// Which readers one fuzz run exercises, from the FUZZ_TARGET environment variable:
/// jpeg, png, tiff, heif, raw, hdr, icc, depth (embedded depth/matte and Apple's depth XMP), movie
/// (QuickTime headers and Live Photo atoms; Motion Photo XMP runs under jpeg), video (`MovieFrameDecoder`: FFmpeg
/// demuxes and decodes a frame, which is converted to RGB and turned by its display matrix), or
/// all (the default: dispatch on `FileKind`).
enum FuzzTarget: String, CaseIterable {
    case jpeg, png, tiff, heif, raw, hdr, icc, depth, movie, video, all

    static let current = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "all") ?? .all

    /// Runs the readers on `data`. Errors are the expected outcome for junk; only a trap,
    /// a sanitizer report or an oversized allocation counts as a finding.
    func run(_ data: Data) {
        _ = FileKind.of(data)
        switch self {
        case .jpeg:
            _ = try? JPEGDecoder.size(of: data)
            _ = try? JPEGDecoder.decode(data)
            _ = try? ExifReader.read(jpeg: data)
            _ = try? ExifReader.thumbnail(jpeg: data)
            _ = try? JPEGSegments.segments(in: data)
            if let icc = try? JPEGSegments.iccProfile(in: data) { _ = ICCProfile.description(of: icc) }
            _ = try? JPEGSegments.hasMPF(in: data)
            _ = try? MultiPictureIndex.read(jpeg: data)
            _ = try? MotionPhoto.read(data)
        case .png:
            _ = try? PNGCodec.decode(data)
        case .tiff:
            if let reader = try? TIFFTagReader(data), let main = try? reader.mainDirectories() {
                for directory in main + main.flatMap({ reader.subDirectories(of: $0) }) {
                    for tag in directory.tags {
                        _ = directory.integers(tag)
                        _ = directory.reals(tag)
                        _ = directory.string(tag)
                    }
                }
            }
            _ = try? ExifReader.read(jpeg: data)
            _ = try? ExifReader.thumbnail(jpeg: data)
            _ = try? TIFFCodec.decode(data)
        case .heif:
            if let s = try? HEIFStructure.parse(data) {
                _ = s.thumbnailSize
                if let icc = s.iccProfile { _ = ICCProfile.description(of: icc) }
                if let exif = s.exif { _ = try? ExifReader.read(jpeg: exif) }
            }
            _ = try? HEIFDecoder.info(data)
            _ = try? HEIFDecoder.decode(data)
        case .raw:
            _ = try? RawFileReader.read(data)
        case .hdr:
            _ = try? RadianceHDR.decode(data)
        case .icc:
            _ = ICCProfile.description(of: data)
        case .movie:
            _ = try? QuickTimeMovie.parse(data)
            _ = try? LivePhotoMovieAtoms.read(data)
        case .video:
            // FFmpeg opens movies by path: the input goes to a scratch file, the first frame and a later one (a seek).
            guard (try? data.write(to: FuzzTarget.scratch)) != nil else { return }
            _ = try? MovieFrameDecoder.frame(contentsOf: FuzzTarget.scratch)
            _ = try? MovieFrameDecoder.frame(contentsOf: FuzzTarget.scratch, at: 0.5)
        case .depth:
            _ = try? EmbeddedDepthReader.describe(data)
            _ = try? EmbeddedDepthReader.read(data)
            _ = try? DepthXMP.parse(data)
        case .all:
            switch FileKind.of(data) {
            case .jpeg: FuzzTarget.jpeg.run(data); FuzzTarget.depth.run(data)
            case .png: FuzzTarget.png.run(data)
            case .tiff: FuzzTarget.tiff.run(data)
            case .dng, .cameraRaw: FuzzTarget.tiff.run(data); FuzzTarget.raw.run(data)
            case .heif: FuzzTarget.heif.run(data); FuzzTarget.depth.run(data)
            case .radianceHDR: FuzzTarget.hdr.run(data)
            case .movie: FuzzTarget.movie.run(data); FuzzTarget.video.run(data)
            case nil: _ = try? DepthXMP.parse(data)
            }
        }
    }
}

extension FuzzTarget {
    /// The video target's scratch file (one per process, removed at exit).
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-fuzz-video-\(getpid()).mov")
        atexit { unlink(FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-fuzz-video-\(getpid()).mov").path) }
        return url
    }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzTarget.current.run(Data(bytes: bytes, count: count))
    return 0
}

/// libFuzzer's driver (in the fuzzer runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The program's entry: SwiftPM links executables with `main` renamed to `<module>_main`, which
/// keeps libFuzzer's own `main` out, so this one hands the command line to libFuzzer's driver.
@_cdecl("MediaFormatsFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in
        guard let bytes else { return fuzzOneInput(UnsafePointer(bitPattern: 1)!, 0) }
        return fuzzOneInput(bytes, size)
    }
}
