import CaptureCore
import Foundation
import Fusion
import ImagePipeline
import MediaFormats

/// OpenCapture addition: fuses a bracket into one photo — what Apple leaves to the app.
/// Aligns hand-held frames (a global shift from median-threshold bitmaps, then tile by tile for small
/// rotations and parallax), rejects what moved between frames (deghosting against the middle frame),
/// blends them with Mertens exposure fusion, and, when the exposures are known and `mergesHDR` is set,
/// merges them to scene-linear radiance (Radiance `.hdr`) with a tone-mapped rendition. Reads JPEG, PNG, TIFF, HEIF/HEIC, DNG or camera-raw files (or, through
/// the `OpenCapture` module, `AVCapturePhoto`s). A bracket of raw files with known exposures is instead merged raw
/// (`RawBracketMerger`: aligned, judged tile by tile against the middle frame, always) and the merged frame developed by
/// the ISP with its local tone mapping — the fused JPEG — and developed linear for the `.hdr`.
///
/// Every input's header is checked first (kind, size, equal sizes, memory), so a bad bracket fails
/// before anything is decoded. Inputs are read in the colour space they declare, and the JPEGs
/// written carry the reference frame's EXIF, its orientation, and the ICC profile of that colour space; the `.hdr`, which
/// has no orientation tag, is written turned upright. The reference
/// is the frame of the middle exposure when the exposures are known (EXIF or given), else the middle file.
public struct PhotoFusion: Sendable {
    /// Align the frames before fusing (default true).
    public var alignsImages = true
    /// When aligning, also align tile by tile after the global shift (default true).
    public var alignsLocally = true
    /// Keep only the reference frame (the middle exposure) where the others disagree with it — something moved (default
    /// true).
    public var removesGhosts = true
    /// Also merge to scene-linear HDR and tone-map it when the exposures are known (default true).
    public var mergesHDR = true
    /// Fail, once the headers are read and before any image is decoded or fused, when `mergesHDR` is set and the
    /// exposures are neither given nor in every file (default false: the fused photo is still made, without the HDR).
    /// (A raw file's exposure comes with its mosaic, which is read to learn it.)
    public var requiresExposures = false
    /// Largest shift searched, in pixels.
    public var maxShift = 64
    /// JPEG quality of the fused outputs, 0…1.
    public var jpegQuality = 0.92
    /// Exposure-fusion weights of enfuse (coefficients of its measures, added; 0 switches a measure off): local
    /// contrast (|Laplacian|, enfuse's is a local standard deviation), colour saturation (HSL) and well-exposedness of
    /// the grey level. Defaults 0, 0.2, 1 as enfuse's: contrast favours the noisiest frame's grain. (The paper's and
    /// OpenCV's are exponents of a product, 1, 1, 1: `ExposureFusion()`.)
    public var contrastWeight = 0.0
    public var saturationWeight = 0.2
    public var exposureWeight = 1.0

    public init() {}

    /// Fuses image files (JPEG, PNG, TIFF, HEIF, DNG or camera raw). Exposures come from EXIF or the
    /// raw file; `exposures` (relative, e.g. duration × ISO) overrides them.
    public func fuse(contentsOf urls: [URL], exposures: [Double]? = nil,
                     progress: ((String) -> Void)? = nil) throws -> PhotoFusionResult {
        try checkCount(urls.count, exposures: exposures)
        let files = try urls.map { url -> (String, Data) in
            do {
                return (url.lastPathComponent, try AtomicFile.read(url))
            } catch {
                throw PhotoFusionError.unreadable(url.path, reason: FileAccessError.reason(for: error))
            }
        }
        return try fuse(files: files, exposures: exposures, progress: progress)
    }

    /// Fuses encoded image files held in memory, named `names` in errors (default "image 1", …).
    public func fuse(fileData: [Data], names: [String]? = nil, exposures: [Double]? = nil,
                     progress: ((String) -> Void)? = nil) throws -> PhotoFusionResult {
        let names = names ?? fileData.indices.map { "image \($0 + 1)" }
        guard names.count == fileData.count else { throw PhotoFusionError.invalidExposures("\(names.count) names for \(fileData.count) images") }
        return try fuse(files: Array(zip(names, fileData)), exposures: exposures, progress: progress)
    }

    private func checkCount(_ count: Int, exposures given: [Double]?) throws {
        guard count >= 2 else { throw PhotoFusionError.notEnoughImages(count) }
        if let given {
            guard given.count == count else { throw PhotoFusionError.invalidExposures("\(given.count) values for \(count) images") }
            guard given.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw PhotoFusionError.invalidExposures("values must be positive") }
        }
    }

    private func fuse(files: [(String, Data)], exposures given: [Double]?,
                      progress: ((String) -> Void)?) throws -> PhotoFusionResult {
        try checkCount(files.count, exposures: given)
        guard (0.0...1.0).contains(jpegQuality) else { throw PhotoFusionError.invalidExposures("JPEG quality \(jpegQuality) is outside 0…1") }
        var timings: [PhotoFusionResult.StepTime] = []
        let clock = ContinuousClock()
        func timed<T>(_ step: String, _ body: () throws -> T) rethrows -> T {
            let start = clock.now
            let value = try body()
            let elapsed = start.duration(to: clock.now)
            timings.append(PhotoFusionResult.StepTime(step: step, seconds: Double(elapsed.components.seconds)
                                                        + Double(elapsed.components.attoseconds) * 1e-18))
            return value
        }

        // Cheap checks first: every header, equal sizes, one colour space; then decode.
        let inputs = try timed("read headers") { try files.map { try FusionInput.probe($0.1, name: $0.0) } }
        let size = inputs[0].size
        if let other = inputs.first(where: { $0.size != size }) {
            throw PhotoFusionError.sizeMismatch("\(inputs[0].name) is \(size.width)×\(size.height), "
                                                + "\(other.name) is \(other.size.width)×\(other.size.height)")
        }
        let colorSpace = inputs[0].colorSpace
        if let other = inputs.first(where: { $0.colorSpace != colorSpace }) {
            throw PhotoFusionError.mixedColorSpaces("\(inputs[0].name) is \(colorSpace.rawValue), \(other.name) is \(other.colorSpace.rawValue)")
        }
        // Pixels are fused as stored: a frame stored turned (another EXIF orientation) would be fused sideways.
        if let other = inputs.first(where: { $0.orientation != inputs[0].orientation }) {
            throw PhotoFusionError.mixedOrientations("\(inputs[0].name) has EXIF orientation \(inputs[0].orientation), "
                                                     + "\(other.name) has \(other.orientation)")
        }
        let exposures = given ?? (inputs.allSatisfy { $0.exposure != nil } ? inputs.compactMap(\.exposure) : nil)
        if requiresExposures, mergesHDR, exposures == nil {
            let missing = inputs.filter { $0.exposure == nil }.map(\.name).joined(separator: ", ")
            throw PhotoFusionError.invalidExposures("unknown for \(missing) (no EXIF exposure time and ISO); give them, e.g. 0.25,1,4")
        }
        // The reference is the middle exposure when the exposures are known (files in any order, as a wildcard sorts
        // them), else the middle file.
        let reference = exposures.map { e in e.indices.sorted { (e[$0], $0) < (e[$1], $1) }[e.count / 2] } ?? inputs.count / 2
        let exif = outputExif(inputs[reference], colorSpace: colorSpace)
        let icc = Self.outputProfile(inputs[reference], colorSpace: colorSpace)
        let quality = max(1, min(100, Int((jpegQuality * 100).rounded())))

        // A bracket of raw frames with known exposures is merged before it is developed, as a phone's HDR does: one
        // frame of wider range, rendered by the ISP with its local tone mapping.
        let raws = inputs.compactMap(\.raw)
        var rawMerge: (raw: RawImage, shifts: [(dx: Int, dy: Int)])?
        if raws.count == inputs.count, let exposures {
            rawMerge = timed("merge raw frames") {
                progress?("merging \(raws.count) raw frames to frame \(reference + 1)")
                return RawBracketMerger.merge(raws, exposures: exposures, reference: reference)
            }
            // Frames it cannot merge (different sizes or CFA) go the developed way; the step did not happen.
            if rawMerge == nil { timings.removeLast() }
        }
        if let merged = rawMerge, let exposures {
            let isp = ImageSignalProcessor()
            progress?("developing the merged frame")
            let fused = timed("develop") { isp.process(merged.raw) }
            let fusedJPEG = try timed("encode fused JPEG") { try JPEGEncoder.encode(fused, quality: quality, exif: exif, iccProfile: icc) }
            var hdrData: Data?, toneMapped: Data?
            if mergesHDR {
                // Scene-linear radiance in the units of 1 / exposure, as the merge of developed frames gives.
                var hdr = timed("develop linear") { isp.processLinear(merged.raw) }
                let scale = Float(1 / exposures[reference])
                for i in hdr.storage.indices { hdr.storage[i] *= scale }
                hdrData = try timed("encode Radiance HDR") { try Self.radianceHDR(hdr, orientation: exif.orientation) }
                let clip = isp.linearClipLevel(for: merged.raw)
                let rendered = timed("tone map") { ToneMapper().render(hdr, saturation: clip.level * scale, shading: clip.shading) }
                toneMapped = try timed("encode tone-mapped JPEG") { try JPEGEncoder.encode(rendered, quality: quality, exif: exif, iccProfile: icc) }
            }
            return PhotoFusionResult(width: size.width, height: size.height,
                                     shifts: merged.shifts.map { PhotoFusionResult.Shift(dx: $0.dx, dy: $0.dy) },
                                     fusedJPEG: fusedJPEG, mergedRaw: true, exposures: exposures, radianceHDR: hdrData,
                                     toneMappedJPEG: toneMapped, colorSpace: colorSpace, orientation: exif.orientation, timings: timings)
        }
        var images = try timed("decode") {
            progress?("decoding " + inputs.map(\.name).joined(separator: ", "))
            return try Parallel.map(count: inputs.count) { try inputs[$0].decode() }
        }

        do {
            var shifts = Array(repeating: PhotoFusionResult.Shift(dx: 0, dy: 0), count: images.count)
            var disagreement: [Double]?
            if alignsImages {
                progress?("aligning \(images.count) frames to frame \(reference + 1)")
                var alignment = ExposureAlignment(maxShift: maxShift)
                let tiles = TileAlignment()
                let refined = alignsLocally && tiles.alignsTiles(width: images[0].width, height: images[0].height)
                // The tile alignment searches its radius around the global shift, so a quarter-resolution global
                // search (its shift within a few pixels) is enough, at a sixteenth of the full search's work.
                if refined, tiles.searchRadius >= 8 { alignment.finestLevel = 2 }
                // With the shifts, whether the frames show one scene at all: a frame of another one still finds a
                // "best" shift.
                let estimate = try timed("align") { try alignment.estimate(images, reference: reference) }
                let global = estimate.shifts
                disagreement = estimate.disagreement
                shifts = global.map { PhotoFusionResult.Shift(dx: $0.dx, dy: $0.dy) }
                if alignsLocally {
                    progress?("aligning tile by tile")
                    let overall = try timed("align tiles") { try tiles.align(&images, reference: reference, initialShifts: global) }
                    shifts = overall.map { PhotoFusionResult.Shift(dx: $0.dx, dy: $0.dy) }
                } else {
                    images = alignment.translate(images, by: global)
                }
            }
            let mergesHDR = mergesHDR && exposures != nil
            var consistency: [TileGrid?]?, deghosted: [Raster<UInt8>]?
            if removesGhosts {
                progress?("deghosting against frame \(reference + 1)")
                try timed("deghost") {
                    let detector = GhostDetector()
                    let weights = detector.consistency(images, reference: reference)
                    if mergesHDR {
                        // The HDR merge needs every frame's own pixels: deghost the fusion on a copy.
                        var filled = images
                        detector.fill(&filled, reference: reference, weights: weights)
                        deghosted = filled
                    } else {
                        // In place: the frames are ours, so no copy is made.
                        detector.fill(&images, reference: reference, weights: weights)
                    }
                    consistency = weights
                }
            }
            progress?("exposure fusion (Mertens: contrast, saturation, well-exposedness)")
            var blend = ExposureFusion.enfuseDefaults
            (blend.contrastWeight, blend.saturationWeight, blend.exposureWeight) = (contrastWeight, saturationWeight, exposureWeight)
            let fused = try timed("exposure fusion") { try blend.fuse(deghosted ?? images, consistency: consistency) { progress?("  \($0)") } }
            deghosted = nil
            // The frames are needed again only for the HDR merge.
            if !mergesHDR { images = [] }
            let fusedJPEG = try timed("encode fused JPEG") {
                try JPEGEncoder.encode(fused, quality: quality, exif: exif, iccProfile: icc)
            }

            var hdrData: Data?, toneMapped: Data?
            if let exposures, mergesHDR {
                progress?("HDR merge to scene-linear radiance")
                let hdr = try timed("HDR merge") {
                    let linear = zip(images, inputs).map { image, input in input.response.linearize(image) }
                    // The deghosting weights too: the radiance of what moved comes from the frames that agree with the
                    // reference, as the fused photo's pixels do.
                    return try HDRMerge().merge(linear: linear, exposures: exposures, saturation: 1, consistency: consistency)
                }
                hdrData = try timed("encode Radiance HDR") { try Self.radianceHDR(hdr, orientation: exif.orientation) }
                progress?("tone mapping")
                let rendered = timed("tone map") { ToneMapper().render(hdr, saturation: HDRMerge.clipLevel(exposures: exposures) ?? .infinity) }
                toneMapped = try timed("encode tone-mapped JPEG") {
                    try JPEGEncoder.encode(rendered, quality: quality, exif: exif, iccProfile: icc)
                }
            }
            return PhotoFusionResult(width: size.width, height: size.height, shifts: shifts, fusedJPEG: fusedJPEG,
                                     mergedRaw: false, exposures: exposures, radianceHDR: hdrData, toneMappedJPEG: toneMapped,
                                     colorSpace: colorSpace, orientation: exif.orientation, timings: timings,
                                     disagreement: disagreement)
        } catch let error as FusionError {
            throw PhotoFusionError.fusionFailed(error.description)
        } catch let error as MediaFormatError {
            throw PhotoFusionError.fusionFailed(error.description)
        }
    }

    /// The Radiance file of `hdr`, turned upright by the frames' EXIF `orientation` (a Radiance file carries no EXIF;
    /// the JPEGs beside it keep the stored pixels and the tag, as cameras write them).
    static func radianceHDR(_ hdr: Raster<Float>, orientation: Int) throws -> Data {
        let transform = ExifOrientationTransform(exifOrientation: orientation, size: Size(width: hdr.width, height: hdr.height))
        return try RadianceHDR.encode(transform.apply(hdr))
    }

    /// The ICC profile the outputs carry: the reference frame's own when it names neither sRGB nor P3 (Adobe RGB, ProPhoto,
    /// a scanner's), whose values the fusion keeps in that encoding, so they show as the frames did; else the profile of
    /// the colour space the frames were read in. Tagging an Adobe RGB bracket's fusion sRGB showed it desaturated.
    static func outputProfile(_ input: FusionInput, colorSpace: ColorSpace) -> Data {
        if let profile = input.iccProfile, let description = ICCProfile.description(of: profile),
           description.range(of: "P3", options: .caseInsensitive) == nil, description.range(of: "sRGB", options: .caseInsensitive) == nil {
            return profile
        }
        return ICCProfile.data(for: colorSpace)
    }

    /// The reference frame's EXIF for a derived photo: its capture details and orientation, the
    /// output's colour space, Software = OpenCapture (ColorSpace "uncalibrated" beside a profile of
    /// the reference's own); sizes and thumbnail are the new file's own. A frame without
    /// EXIF claims no camera detail (not even a sensor's sensing method).
    private func outputExif(_ input: FusionInput, colorSpace: ColorSpace) -> ExifMetadata {
        let base = input.exif ?? { var none = ExifMetadata(); none.sensingMethod = nil; return none }()
        var exif = base.derived(by: "fusion", orientation: input.orientation, colorSpace: colorSpace)
        if Self.outputProfile(input, colorSpace: colorSpace) != ICCProfile.data(for: colorSpace) { exif.colorSpace = 0xFFFF }
        return exif
    }
}
