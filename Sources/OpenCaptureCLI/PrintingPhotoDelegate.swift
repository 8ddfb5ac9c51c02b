import Foundation
import OpenCapture

/// Prints every delegate callback with its time as it happens and writes each photo's file.
final class PrintingPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let start = Date()
    private let directory: URL
    private let name: String
    private let quiet: Bool
    private var continuation: CheckedContinuation<Void, Never>?
    private(set) var written: [URL] = []
    private(set) var failure: Error?
    private(set) var resolved: AVCaptureResolvedPhotoSettings?
    private(set) var photos: [AVCapturePhoto] = []

    init(directory: URL, name: String, quiet: Bool = false) {
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
        resolved = resolvedSettings
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

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        photos.append(photo)
        if let error { failure = error; log("didFinishProcessingPhoto error: \(error)"); return }
        let exif = photo.metadata["{Exif}"] as? [String: Any] ?? [:]
        let duration = (exif["ExposureTime"] as? Double).map(formatSeconds) ?? "?"
        let iso = (exif["ISOSpeedRatings"] as? [Int])?.first.map(String.init) ?? "?"
        if let data = photo.fileDataRepresentation() {
            let numbered = photo.resolvedSettings.expectedPhotoCount > 1
            let url = directory.appendingPathComponent("\(name)\(numbered ? "-\(photo.photoCount)" : "").\(Self.fileExtension(photo, data))")
            do {
                try AtomicFile.write(data, to: url)
                written.append(url)
                log("didFinishProcessingPhoto #\(photo.photoCount): \(duration), ISO \(iso) → \(url.path) (\(data.count / 1024) KB)")
            } catch {
                failure = error
                log("didFinishProcessingPhoto: \(error)")
            }
        } else {
            log("didFinishProcessingPhoto #\(photo.photoCount): \(duration), ISO \(iso), pixel buffer only")
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        if let error { failure = error }
        log("didFinishCapture" + (error.map { "     error: \($0)" } ?? ""))
        continuation?.resume()
        continuation = nil
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
            self.continuation = continuation
            output.capturePhoto(with: settings, delegate: self)
        }
    }
}
