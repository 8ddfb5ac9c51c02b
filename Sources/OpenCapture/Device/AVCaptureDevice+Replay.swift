import CaptureCore
import CaptureEngine
import Foundation
import MediaFormats

extension AVCaptureDevice {
    /// Why a replay device could not be made (OpenCapture addition).
    public enum ReplayError: DescribedError, Equatable {
        case noRawFiles(String)
        case unreadable(String, reason: String)
        case mismatchedFrames(String)

        public var description: String {
            switch self {
            case .noRawFiles(let where_): return "no camera raw or DNG files in \(where_)"
            case .unreadable(let name, let reason): return "cannot read \(name): \(reason)"
            case .mismatchedFrames(let why): return "replay frames must match: \(why)"
            }
        }
    }

    /// OpenCapture addition: a camera whose frames are real raw files (any camera raw or DNG that
    /// LibRaw reads), so capture code can be tested on real sensor data. Each exposure takes the
    /// next file, in name order, cycling; frames are delivered as recorded (exposure requests do
    /// not change them) and developed by OpenCapture's own pipeline. Its one format has the files' size.
    public static func replayDevice(contentsOf folder: URL) throws -> AVCaptureDevice {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") }.sorted()
        var frames: [RawImage] = [], infos: [RawFileInfo] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), data.count > 16 else { continue }
            // Recognised by content, not by name: pictures and plain TIFFs are not frames; DNGs,
            // camera raws and files of no kind FileKind names (LibRaw reads more) must be read.
            switch FileKind.of(data) {
            case .dng, .cameraRaw, nil: break
            case .jpeg, .png, .tiff, .heif, .radianceHDR, .movie: continue
            }
            do {
                let (raw, info) = try RawFileReader.read(data)
                frames.append(raw)
                infos.append(info)
            } catch {
                throw ReplayError.unreadable(name, reason: "\(error)")
            }
        }
        guard let first = frames.first else { throw ReplayError.noRawFiles(folder.path) }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height && $0.cfa == first.cfa }) else {
            throw ReplayError.mismatchedFrames("all files need the same size and colour filter pattern")
        }
        let source = ReplayFrameSource(frames: frames, infos: infos)
        let name = "Replay \(infos[0].make) \(infos[0].model)".trimmingCharacters(in: .whitespaces)
        return AVCaptureDevice(deviceType: .builtInWideAngleCamera, position: .back, module: source.module(name: name),
                               replay: source, name: name)
    }

    /// Whether this device replays recorded raw files.
    public var isReplayDevice: Bool { replay != nil }
}
