import Foundation
import OpenCapture

/// Prints every delegate callback with its time as it happens and writes the request's files when it finishes, as one
/// set: all of them or, when the request failed or a file cannot be written, none (a Live Photo's movie, which the
/// output writes itself, is taken back then). By default no file is written over an existing one: a request named by
/// `Naming.numbered` takes the next free number (`OutputNumbering`), and again if another process takes it meanwhile.
///
/// `@unchecked Sendable`: `lock` guards `state`, the only mutable field.
final class PrintingPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    /// How a request's files are named: `name` + a suffix (".jpg", "-1.dng", "-depth.pfm", …).
    enum Naming {
        /// Always this name.
        case fixed(String)
        /// `prefix-N`, N the number after the highest one in the folder when the files are written.
        case numbered(prefix: String)
    }

    private let start: Date
    private let directory: URL
    private let naming: Naming
    private let quiet: Bool
    private let replacing: Bool
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var pending: [(suffix: String, data: Data)] = []
        var movie: URL?
        var written: [URL] = []
        var name: String?
        var failure: Error?
        var resolved: AVCaptureResolvedPhotoSettings?
        var photos: [AVCapturePhoto] = []
    }

    private func update<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }

    /// The files written (after `capture` returns: all of the request's, or none).
    var written: [URL] { update { $0.written } }
    /// The name the request's files were written under (nil until they are).
    var name: String? { update { $0.name } }
    /// The first error of the request, if any.
    var failure: Error? { update { $0.failure } }
    var resolved: AVCaptureResolvedPhotoSettings? { update { $0.resolved } }
    var photos: [AVCapturePhoto] { update { $0.photos } }

    /// `start`: the time the printed milliseconds count from (one for all of a command's requests); `replacing`: whether
    /// a file already under one of the request's names is replaced (only the demo, whose folder and names are its own).
    init(directory: URL, naming: Naming, quiet: Bool = false, start: Date = Date(), replacing: Bool = false) {
        self.start = start
        self.replacing = replacing
        self.directory = directory
        self.naming = naming
        self.quiet = quiet
    }

    /// A request whose files are always named `name`.
    convenience init(directory: URL, name: String, quiet: Bool = false, start: Date = Date(), replacing: Bool = false) {
        self.init(directory: directory, naming: .fixed(name), quiet: quiet, start: start, replacing: replacing)
    }

    private func log(_ text: String) {
        guard !quiet else { return }
        print(String(format: "  %7.1f ms  ", Date().timeIntervalSince(start) * 1000) + text)
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
        update { $0.movie = outputFileURL }
        log(String(format: "didFinishProcessingLivePhotoToMovieFile %@: %.2f s, still at %.2f s", outputFileURL.path,
                   duration.seconds, photoDisplayTime.seconds))
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        update { $0.photos.append(photo) }
        if let error { update { $0.failure = $0.failure ?? error }; log("didFinishProcessingPhoto \(label(photo)) error: \(error)"); return }
        let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
        let duration = (exif["ExposureTime"] as? Double).map(formatSeconds) ?? "?"
        let iso = (exif["ISOSpeedRatings"] as? [Int])?.first.map(String.init) ?? "?"
        if let data = photo.fileDataRepresentation() {
            let fileExtension = Self.fileExtension(photo, data)
            update { $0.pending.append((Self.suffix(photo) + "." + fileExtension, data)) }
            log("didFinishProcessingPhoto \(label(photo)): \(duration), ISO \(iso), \(fileExtension.uppercased()) \(data.count / 1024) KB")
        } else {
            log("didFinishProcessingPhoto \(label(photo)): \(duration), ISO \(iso), pixel buffer only")
        }
        addDepth(of: photo)
    }

    /// "#uniqueID" of the request, with "photo k of n" when it delivers more than one.
    private func label(_ photo: AVCapturePhoto) -> String {
        let settings = photo.resolvedSettings
        return "#\(settings.uniqueID)" + (settings.expectedPhotoCount > 1 ? " (\(photo.photoCount) of \(settings.expectedPhotoCount))" : "")
    }

    /// Beside a photo with depth: the raw map (PFM, the delivered type) and a colour-mapped picture
    /// of it (PNG); beside one with a matte, the matte as a greyscale PNG.
    private func addDepth(of photo: AVCapturePhoto) {
        var files: [(String, () throws -> Data)] = []
        if let depth = photo.depthData {
            files.append(("-depth.pfm", { try depth.pfmRepresentation() }))
            files.append(("-depth.png", { try depth.colorMappedPNGRepresentation() }))
        }
        if let matte = photo.portraitEffectsMatte {
            files.append(("-matte.png", { try matte.pngRepresentation() }))
        } else if photo.resolvedSettings.portraitEffectsMatteDimensions.width > 0 {
            log("  matte: none — no subject stands clear of the background at the focus point (aim --focus-point at a person)")
        }
        for (suffix, make) in files {
            do {
                let data = try make()
                update { $0.pending.append((suffix, data)) }
            } catch {
                update { $0.failure = $0.failure ?? error }
                log("  \(suffix.dropFirst()): \(error)")
            }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error { update { $0.failure = $0.failure ?? error } }
        writeFiles()
        log("didFinishCapture" + (error.map { "     error: \($0)" } ?? ""))
        let continuation = update { state -> CheckedContinuation<Void, Never>? in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// Writes the request's files as one set, or none when it failed (taking back a Live Photo movie the output wrote).
    private func writeFiles() {
        let (pending, movie, failed) = update { ($0.pending, $0.movie, $0.failure != nil) }
        guard !failed else {
            if let movie { unlink(movie.path) }
            if !pending.isEmpty { log("  nothing written: the request failed") }
            return
        }
        guard !pending.isEmpty else { return }
        // A numbered name taken by another process between the choice and the write: the next one (a few times).
        let isNumbered: Bool
        if case .numbered = naming { isNumbered = true } else { isNumbered = false }
        for attempt in 0..<10 {
            let name: String
            switch naming {
            case .fixed(let fixed): name = fixed
            case .numbered(let prefix): name = "\(prefix)-\(OutputNumbering.next(prefix, in: directory))"
            }
            let files = pending.map { (data: $0.data, url: directory.appendingPathComponent(name + $0.suffix)) }
            do {
                try AtomicFile.write(files, replacing: replacing)
                update { $0.written = files.map(\.url); $0.name = name }
                for file in files { log("  → \(file.url.path) (\(file.data.count / 1024) KB)") }
                return
            } catch let error as FileAccessError where error.isNameTaken && isNumbered && attempt < 9 {
                continue
            } catch {
                update { $0.failure = error }
                break
            }
        }
        if let movie { unlink(movie.path) }
        log("  nothing written: \(failure.map { "\($0)" } ?? "the files could not be written")")
    }

    /// What follows the request's name for one photo: nothing for a request of one photo, or of a RAW and a processed
    /// photo (told apart by their extensions, `photo-1.dng` + `photo-1.jpg`, as an iPhone names IMG_0001.DNG +
    /// IMG_0001.HEIC, so a library import pairs them); a bracket's shot number (`-2.dng`, `-2.jpg`); else the photo's
    /// count.
    static func suffix(_ photo: AVCapturePhoto) -> String {
        let resolved = photo.resolvedSettings
        guard resolved.expectedPhotoCount > 1 else { return "" }
        if photo.bracketSettings != nil && photo.sequenceCount > 0 { return "-\(photo.sequenceCount)" }
        if resolved.expectedPhotoCount == 2 && resolved.rawPhotoDimensions.width > 0 { return "" }
        return "-\(photo.photoCount)"
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
