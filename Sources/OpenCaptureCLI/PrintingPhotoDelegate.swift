import Foundation
import OpenCapture

/// Prints every delegate callback with its time as it happens and writes each photo's file, by default never over an
/// existing one (the command chose a free name with `OutputNumbering`; a file that appears meanwhile is kept and the
/// write fails).
///
/// `@unchecked Sendable`: `lock` guards `state`, the only mutable field.
final class PrintingPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let start: Date
    private let directory: URL
    private let name: String
    private let quiet: Bool
    private let replacing: Bool
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var written: [URL] = []
        var failure: Error?
        var resolved: AVCaptureResolvedPhotoSettings?
        var photos: [AVCapturePhoto] = []
    }

    private func update<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }

    /// The files written so far.
    var written: [URL] { update { $0.written } }
    /// The first error of the request, if any.
    var failure: Error? { update { $0.failure } }
    var resolved: AVCaptureResolvedPhotoSettings? { update { $0.resolved } }
    var photos: [AVCapturePhoto] { update { $0.photos } }

    /// `start`: the time the printed milliseconds count from (one for all of a command's requests); `replacing`: whether
    /// a file already under one of the photo's names is replaced (only the demo, whose folder and names are its own).
    init(directory: URL, name: String, quiet: Bool = false, start: Date = Date(), replacing: Bool = false) {
        self.start = start
        self.replacing = replacing
        self.directory = directory
        self.name = name
        self.quiet = quiet
    }

    private func log(_ text: String) {
        guard !quiet else { return }
        print(String(format: "  %7.1f ms  ", Date().timeIntervalSince(start) * 1000) + text)
        FileHandle.standardOutput.synchronizeFile()
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        update { $0.resolved = resolvedSettings }
        let d = resolvedSettings.photoDimensions
        log("willBeginCapture     #\(resolvedSettings.uniqueID): \(d.width)×\(d.height), flash \(resolvedSettings.isFlashEnabled ? "on" : "off"), "
            + "stabilization \(resolvedSettings.isStillImageStabilizationEnabled ? "on" : "off"), \(resolvedSettings.expectedPhotoCount) photo(s)")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        log("willCapturePhoto     (shutter)")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        log("didCapturePhoto      (exposure complete)")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings) {
        log("didFinishRecordingLivePhotoMovie (post-roll captured)")
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
                     photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error {
            update { if $0.failure == nil { $0.failure = error } }
            log("didFinishProcessingLivePhotoToMovieFile: \(error)")
            return
        }
        update { $0.written.append(outputFileURL) }
        log(String(format: "didFinishProcessingLivePhotoToMovieFile %@: %.2f s, still at %.2f s", outputFileURL.path,
                   duration.seconds, photoDisplayTime.seconds))
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        update { $0.photos.append(photo) }
        if let error { update { $0.failure = error }; log("didFinishProcessingPhoto error: \(error)"); return }
        let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
        let duration = (exif["ExposureTime"] as? Double).map(formatSeconds) ?? "?"
        let iso = (exif["ISOSpeedRatings"] as? [Int])?.first.map(String.init) ?? "?"
        if let data = photo.fileDataRepresentation() {
            let numbered = photo.resolvedSettings.expectedPhotoCount > 1
            let url = directory.appendingPathComponent("\(name)\(numbered ? "-\(photo.photoCount)" : "").\(Self.fileExtension(photo, data))")
            do {
                try AtomicFile.write(data, to: url, replacing: replacing)
                update { $0.written.append(url) }
                log("didFinishProcessingPhoto \(label(photo)): \(duration), ISO \(iso) → \(url.path) (\(data.count / 1024) KB)")
            } catch {
                update { $0.failure = error }
                log("didFinishProcessingPhoto: \(error)")
            }
        } else {
            log("didFinishProcessingPhoto \(label(photo)): \(duration), ISO \(iso), pixel buffer only")
        }
        writeDepth(of: photo)
    }

    /// "#uniqueID" of the request, with "photo k of n" when it delivers more than one.
    private func label(_ photo: AVCapturePhoto) -> String {
        let settings = photo.resolvedSettings
        return "#\(settings.uniqueID)" + (settings.expectedPhotoCount > 1 ? " (\(photo.photoCount) of \(settings.expectedPhotoCount))" : "")
    }

    /// Beside a photo with depth: the raw map (PFM, the delivered type) and a colour-mapped picture
    /// of it (PNG); beside one with a matte, the matte as a greyscale PNG.
    private func writeDepth(of photo: AVCapturePhoto) {
        var files: [(String, () throws -> Data)] = []
        if let depth = photo.depthData {
            files.append(("depth.pfm", { try depth.pfmRepresentation() }))
            files.append(("depth.png", { try depth.colorMappedPNGRepresentation() }))
        }
        if let matte = photo.portraitEffectsMatte {
            files.append(("matte.png", { try matte.pngRepresentation() }))
        } else if photo.resolvedSettings.portraitEffectsMatteDimensions.width > 0 {
            log("  matte: none — no subject stands clear of the background at the focus point (aim --focus-point at a person)")
        }
        for (suffix, make) in files {
            let url = directory.appendingPathComponent("\(name)-\(suffix)")
            do {
                try AtomicFile.write(try make(), to: url, replacing: replacing)
                update { $0.written.append(url) }
                log("  \(suffix.hasPrefix("depth") ? "depth" : "matte") → \(url.path)")
            } catch {
                update { $0.failure = error }
                log("  \(suffix): \(error)")
            }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error { update { $0.failure = error } }
        log("didFinishCapture" + (error.map { "     error: \($0)" } ?? ""))
        let continuation = update { state -> CheckedContinuation<Void, Never>? in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// The extension for a photo's file data: dng, tif, heic or jpg.
    static func fileExtension(_ photo: AVCapturePhoto, _ data: Data) -> String {
        if photo.isRawPhoto { return "dng" }
        switch InspectedFileKind.of(data) {
        case .tiff: return "tif"
        case .heif: return "heic"
        default: return "jpg"
        }
    }

    /// Captures and waits for `didFinishCapture`.
    func capture(_ settings: AVCapturePhotoSettings, with output: AVCapturePhotoOutput) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            update { $0.continuation = continuation }
            output.capturePhoto(with: settings, delegate: self)
        }
    }
}
