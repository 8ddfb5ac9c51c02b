import CaptureCore
import Foundation
import Fusion
import ImagePipeline
import MediaFormats

/// OpenCapture addition: fuses a bracket into one photo — what Apple leaves to the app.
/// Aligns hand-held frames (median-threshold bitmaps), blends them with Mertens exposure fusion,
/// and, when the exposures are known, merges them to scene-linear radiance (Radiance `.hdr`) with
/// a tone-mapped rendition. Works on `AVCapturePhoto`s of a bracket or on any JPEG, PNG, TIFF,
/// DNG or camera-raw files.
public struct PhotoFusion: Sendable {
    /// Align the frames before fusing (default true).
    public var alignsImages = true
    /// Largest shift searched, in pixels.
    public var maxShift = 64
    /// JPEG quality of the fused outputs, 0…1.
    public var jpegQuality = 0.92

    public init() {}

    /// Fuses the photos of one bracket; exposures come from their metadata.
    public func fuse(_ photos: [AVCapturePhoto], progress: ((String) -> Void)? = nil) throws -> PhotoFusionResult {
        let inputs = try photos.enumerated().map { index, photo -> FusionInput in
            guard let data = photo.fileDataRepresentation() else {
                throw PhotoFusionError.unreadable("photo \(index + 1)", reason: "it has no file data")
            }
            return try FusionInput.decode(data, name: "photo \(index + 1)")
        }
        return try fuse(inputs, exposures: nil, progress: progress)
    }

    /// Fuses image files (JPEG, PNG, TIFF, DNG or camera raw). Exposures come from EXIF or the raw
    /// file; `exposures` (relative, e.g. duration × ISO) overrides them.
    public func fuse(contentsOf urls: [URL], exposures: [Double]? = nil,
                     progress: ((String) -> Void)? = nil) throws -> PhotoFusionResult {
        let inputs = try urls.map { url -> FusionInput in
            progress?("reading \(url.lastPathComponent)")
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw PhotoFusionError.unreadable(url.lastPathComponent, reason: error.localizedDescription)
            }
            return try FusionInput.decode(data, name: url.lastPathComponent)
        }
        return try fuse(inputs, exposures: exposures, progress: progress)
    }

    private func fuse(_ inputs: [FusionInput], exposures given: [Double]?,
                      progress: ((String) -> Void)?) throws -> PhotoFusionResult {
        guard inputs.count >= 2 else { throw PhotoFusionError.notEnoughImages(inputs.count) }
        let size = inputs[0].image.size
        guard inputs.allSatisfy({ $0.image.size == size }) else { throw PhotoFusionError.sizeMismatch }
        if let given {
            guard given.count == inputs.count else {
                throw PhotoFusionError.invalidExposures("\(given.count) values for \(inputs.count) images")
            }
            guard given.allSatisfy({ $0 > 0 && $0.isFinite }) else { throw PhotoFusionError.invalidExposures("values must be positive") }
        }
        let exposures = given ?? (inputs.allSatisfy { $0.exposure != nil } ? inputs.map { $0.exposure! } : nil)

        do {
            let reference = inputs.count / 2
            var images = inputs.map(\.image)
            var shifts = Array(repeating: PhotoFusionResult.Shift(dx: 0, dy: 0), count: images.count)
            if alignsImages {
                progress?("aligning \(images.count) frames to frame \(reference + 1)")
                let alignment = ExposureAlignment(maxShift: maxShift)
                shifts = try alignment.estimateShifts(images, reference: reference).map { PhotoFusionResult.Shift(dx: $0.dx, dy: $0.dy) }
                images = try alignment.align(images, reference: reference)
            }
            progress?("exposure fusion (Mertens: contrast, saturation, well-exposedness)")
            let fused = try ExposureFusion().fuse(images) { progress?("  \($0)") }
            let quality = max(1, min(100, Int((jpegQuality * 100).rounded())))
            let fusedJPEG = try JPEGEncoder.encode(fused, quality: quality)

            var hdrData: Data?, toneMapped: Data?
            if let exposures {
                progress?("HDR merge to scene-linear radiance")
                let linear = zip(images, inputs).map { image, input in input.response.linearize(image) }
                let hdr = try HDRMerge().merge(linear: linear, exposures: exposures, saturation: 1)
                hdrData = try RadianceHDR.encode(hdr)
                progress?("tone mapping")
                toneMapped = try JPEGEncoder.encode(ToneMapper().render(hdr), quality: quality)
            }
            return PhotoFusionResult(width: size.width, height: size.height, shifts: shifts, fusedJPEG: fusedJPEG,
                                     exposures: exposures, radianceHDR: hdrData, toneMappedJPEG: toneMapped)
        } catch let error as FusionError {
            throw PhotoFusionError.fusionFailed(error.description)
        } catch let error as MediaFormatError {
            throw PhotoFusionError.fusionFailed(error.description)
        }
    }
}
