import ArgumentParser
import Foundation
import CaptureCore
import Depth
import MediaFormats
import OpenCapture

/// `opencapture depth`: a disparity map from a rectified stereo pair (census semi-global matching).
struct DepthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "depth",
        abstract: "Disparity (left x − right x, pixels) of a rectified stereo pair, written as PFM (inf = unknown).")

    @Argument(help: "Left image (PNG, JPEG or TIFF).") var left: String
    @Argument(help: "Right image, the same size.") var right: String
    @Option(parsing: .unconditional, help: "Smallest disparity searched, pixels.") var minDisparity: Int = 0
    @Option(help: "Largest disparity searched, pixels (exclusive); default min + 128.") var maxDisparity: Int?
    @Option(name: .shortAndLong, help: "Output PFM (Middlebury's convention: +inf where no disparity was found).") var output: String
    @Option(help: "Also write a colour-mapped PNG (near = warm, unknown = black).") var png: String?
    @Option(help: "Aggregation paths: 4 (default, faster) or 8 (adds the diagonals).") var paths: Int = 4
    @Option(help: "Penalty for a one-pixel disparity change (census units, 0…31 per pixel).") var p1: Int?
    @Option(help: "Penalty for a larger disparity change in flat areas.") var p2: Int?
    @Option(help: "Uniqueness ratio 0…<1 (0 = off).") var uniqueness: Float?
    @Option(help: "Left-right check tolerance in pixels (negative = off).") var lrTolerance: Int?
    @Flag(help: "Print the matcher's own time.") var timing = false
    @Flag(help: "Replace output files that already exist (by default an output never replaces a file).") var overwrite = false

    func validate() throws {
        // The matcher's own limit, checked first: the default maximum (min + 128) of a huge minimum would overflow.
        guard minDisparity >= 0, minDisparity <= 1 << 16 else {
            throw DepthCommandError.invalidRange("--min-disparity \(minDisparity) must be within 0…65536")
        }
        let maximum = maxDisparity ?? minDisparity + 128
        guard maximum > minDisparity, maximum - minDisparity <= 1024 else {
            throw DepthCommandError.invalidRange("--max-disparity \(maximum) must exceed --min-disparity \(minDisparity) by 1…1024")
        }
        guard paths == 4 || paths == 8 else { throw DepthCommandError.invalidRange("--paths must be 4 or 8") }
        guard output.lowercased().hasSuffix(".pfm") else {
            throw CLIError("-o \(output): the disparity map is written as PFM; name it .pfm (--png adds a picture)")
        }
        if let png, !png.lowercased().hasSuffix(".png") {
            throw CLIError("--png \(png): the picture is written as PNG; name it .png")
        }
        try parameters().validate()
    }

    func run() throws {
        let outputURL = URL(fileURLWithPath: output)
        let pngURL = png.map { URL(fileURLWithPath: $0) }
        try AtomicFile.checkDestination(outputURL)
        if let pngURL { try AtomicFile.checkDestination(pngURL) }
        try ExistingOutput.refuse([outputURL] + (pngURL.map { [$0] } ?? []), overwrite: overwrite)
        // Never write over an input, and never both outputs to one file.
        let inputs = [left, right].map { URL(fileURLWithPath: $0) }
        for destination in [outputURL] + (pngURL.map { [$0] } ?? []) where inputs.contains(where: { AtomicFile.isSameFile($0, destination) }) {
            throw CLIError("\(destination.path) is one of the input images; choose another output name")
        }
        if let pngURL, AtomicFile.isSameFile(pngURL, outputURL) {
            throw CLIError("-o and --png name the same file; give the picture its own name")
        }
        let startRead = DispatchTime.now().uptimeNanoseconds
        // Both files decode at once (libjpeg-turbo and libpng are single-threaded).
        let paths = [left, right]
        let images = try Parallel.map(count: 2) { try Self.luma(path: paths[$0]) }
        let leftImage = images[0], rightImage = images[1]
        guard leftImage.size == rightImage.size else {
            throw DepthCommandError.sizeMismatch(left: leftImage.size.description, right: rightImage.size.description)
        }
        let matcher = StereoMatcher(parameters: parameters())
        let start = DispatchTime.now().uptimeNanoseconds
        let disparity = try matcher.match(left: leftImage, right: rightImage)
        let end = DispatchTime.now().uptimeNanoseconds
        let seconds = Double(end - start) / 1e9
        var stored = disparity
        stored.storage = disparity.storage.map { $0.isFinite ? $0 : .infinity }
        var files = [(data: try PFMCodec.encode(stored), url: outputURL)]
        if let pngURL {
            let map = DepthMap(values: disparity, kind: .disparity, accuracy: .relative, isFiltered: false)
            files.append((try PNGCodec.encode(DepthColorMap.colorized(map)), pngURL))
        }
        try AtomicFile.write(files, replacing: overwrite)   // the map and its picture, both or neither
        let valid = disparity.storage.lazy.filter(\.isFinite).count
        print(String(format: "%@ → %@  %d×%d  %.1f %% matched", left, output, disparity.width, disparity.height,
                     100 * Double(valid) / Double(max(1, disparity.storage.count))))
        if timing {
            print(String(format: "inner matcher time: %.3f s", seconds))
            print(String(format: "read + decode: %.3f s, write: %.3f s", Double(start - startRead) / 1e9,
                         Double(DispatchTime.now().uptimeNanoseconds - end) / 1e9))
        }
    }

    /// The matcher's parameters from the options (defaults where not given).
    func parameters() -> StereoMatcher.Parameters {
        var parameters = StereoMatcher.Parameters(minDisparity: minDisparity,
                                                  disparityCount: (maxDisparity ?? minDisparity + 128) - minDisparity)
        parameters.paths = paths == 4 ? .four : .eight
        if let p1 { parameters.p1 = p1 }
        if let p2 { parameters.p2 = p2 }
        if let uniqueness { parameters.uniqueness = uniqueness }
        if let lrTolerance { parameters.lrTolerance = lrTolerance < 0 ? nil : lrTolerance }
        return parameters
    }

    /// The file's pixels as Rec. 601 luma in 0…1.
    static func luma(path: String) throws -> Raster<Float> {
        let data: Data
        do { data = try AtomicFile.read(URL(fileURLWithPath: path)) } catch {
            throw DepthCommandError.unreadable(path: path, reason: "\(error)")
        }
        let rgb: Raster<UInt8>
        do {
            switch FileKind.of(data) {
            case .jpeg: rgb = try JPEGDecoder.decode(data)
            case .png: rgb = try PNGCodec.decode(data)
            case .tiff: rgb = try TIFFCodec.decode(data)
            default: throw DepthCommandError.unreadable(path: path, reason: "not a PNG, JPEG or TIFF image")
            }
        } catch let error as MediaFormatError {
            throw DepthCommandError.unreadable(path: path, reason: error == .truncated ? "the file is truncated" : error.description)
        }
        var out = Raster<Float>(width: rgb.width, height: rgb.height)
        let c = rgb.channels, count = rgb.width * rgb.height
        rgb.storage.withUnsafeBufferPointer { src in
            out.storage.withUnsafeMutableBufferPointer { dst in
                for p in 0..<count {
                    dst[p] = c >= 3
                        ? (LumaWeights.rec601 * SIMD3(Float(src[c * p]), Float(src[c * p + 1]), Float(src[c * p + 2]))).sum() / 255
                        : Float(src[c * p]) / 255
                }
            }
        }
        return out
    }
}
