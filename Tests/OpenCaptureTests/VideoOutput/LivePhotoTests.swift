import CameraSimulation
import CaptureCore
import Foundation
import MediaFormats
import OpenCaptureTestSupport
import Testing
@testable import OpenCapture

/// Records a Live Photo request's callbacks in order, with the movie's figures.
final class LivePhotoWatcher: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private(set) var events: [String] = []
    private(set) var photoData: Data?
    private(set) var movie: (url: URL, duration: Double, display: Double, error: Error?)?
    private(set) var resolved: AVCaptureResolvedPhotoSettings?
    private(set) var finishError: Error?
    private var done = false

    private func note(_ event: String) { condition.withLock { events.append(event) } }
    func photoOutput(_ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings) {
        condition.withLock { resolved = resolvedSettings }
        note("willBegin")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { note("willCapture") }
    func photoOutput(_ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings) { note("didCapture") }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        condition.withLock { photoData = photo.fileDataRepresentation() }
        note("photo")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
                     resolvedSettings: AVCaptureResolvedPhotoSettings) { note("recorded") }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
                     photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        condition.withLock { movie = (outputFileURL, duration.seconds, photoDisplayTime.seconds, error) }
        note("movie")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?) {
        condition.withLock { finishError = error; events.append("finish"); done = true; condition.broadcast() }
    }
    func wait(timeout: Double = 60) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock(); defer { condition.unlock() }
        while !done { if !condition.wait(until: deadline) { break } }
    }
}

@Suite(.serialized) struct LivePhotoTests {
    /// A photo-preset session on a small sensor format with Live Photo capture on.
    static func rig() -> (AVCaptureSession, AVCapturePhotoOutput) {
        let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back)!
        device.simulationSeed = 5
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .inputPriority
        session.addInput(try! AVCaptureDeviceInput(device: device))
        session.addInput(try! AVCaptureDeviceInput(device: AVCaptureDevice.makeSimulatedDevice(.microphone, position: .unspecified)!))
        session.addOutput(output)
        session.commitConfiguration()
        try! device.lockForConfiguration()
        device.activeFormat = device.formats.first { $0.dimensions == Size(width: 352, height: 288) }!
        device.unlockForConfiguration()
        return (session, output)
    }

    /// A running 352×288 photo-preset session with Live Photo on and the microphone, streamed for 1.6 s.
    static func running() throws -> (AVCaptureSession, AVCapturePhotoOutput) {
        let (session, output) = Self.rig()
        session.sessionPreset = .photo
        let device = output.currentDevice!
        try device.lockForConfiguration()
        device.activeFormat = device.formats.first { $0.dimensions == Size(width: 352, height: 288) }!
        device.unlockForConfiguration()
        output.isLivePhotoCaptureEnabled = true
        session.startRunning()
        let stream = try #require(session.frameStream)
        _ = stream.waitForFrame(startingAt: 0, timeout: 60)
        _ = stream.waitForFrame(startingAt: (stream.latestFrame?.time ?? 0) + 1.6, timeout: 60)
        return (session, output)
    }

    static func folder() throws -> URL { try ExternalTool.temporaryDirectory() }

    /// A JPEG Live Photo whose movie is `name` in `folder`: the watcher once the request has finished, and the URL.
    static func take(_ output: AVCapturePhotoOutput, name: String, in folder: URL) -> (watcher: LivePhotoWatcher, url: URL) {
        let url = folder.appendingPathComponent(name)
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.livePhotoMovieFileURL = url
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: settings, delegate: watcher)
        watcher.wait()
        return (watcher, url)
    }

    /// The movie's frame at `seconds` as stored (not turned by its display matrix), RGB bytes, through ffmpeg.
    static func frame(of url: URL, at seconds: Double) throws -> [UInt8] {
        let result = try ExternalTool("ffmpeg").run(["-v", "error", "-noautorotate", "-i", url.path, "-ss", String(format: "%.3f", seconds),
                                                      "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        return [UInt8](result.standardOutput)
    }

    @Test func supportNeedsThePhotoPresetAndNoMovieOutput() {
        let (session, output) = Self.rig()
        #expect(!output.isLivePhotoCaptureSupported, "input-priority preset")
        session.sessionPreset = .photo
        #expect(output.isLivePhotoCaptureSupported)
        output.isLivePhotoCaptureEnabled = true
        #expect(output.isLivePhotoCaptureEnabled)
        #expect(output.availableLivePhotoVideoCodecTypes.first == .h264)
        let movie = AVCaptureMovieFileOutput()
        session.addOutput(movie)
        #expect(!output.isLivePhotoCaptureSupported && !output.isLivePhotoCaptureEnabled)
        session.removeOutput(movie)
        #expect(output.isLivePhotoCaptureEnabled, "the setting is kept")
        output.isLivePhotoCaptureEnabled = false
        output.isLivePhotoCaptureSuspended = true
        #expect(!output.isLivePhotoCaptureSuspended, "suspending with Live Photo off is refused")
    }

    @Test func aLivePhotoDeliversAPairedStillAndMovieInAppleOrder() throws {
        let (session, output) = try Self.running()
        defer { session.stopRunning() }
        let stream = try #require(session.frameStream)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("live.mov")
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.livePhotoMovieFileURL = url
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: settings, delegate: watcher)
        watcher.wait()
        #expect(watcher.events == ["willBegin", "willCapture", "didCapture", "photo", "recorded", "movie", "finish"])
        #expect(watcher.finishError == nil)
        let resolved = try #require(watcher.resolved)
        #expect(resolved.livePhotoMovieDimensions.width == Int32(stream.configuration.size.width))
        let movie = try #require(watcher.movie)
        #expect(movie.error == nil)
        #expect(movie.duration > 2.7 && movie.duration < 3.3, "duration \(movie.duration)")
        #expect(abs(movie.display - 1.5) < 0.1, "display time \(movie.display)")
        let data = try Data(contentsOf: url)
        let pairing = try LivePhotoMovieAtoms.read(data)
        let identifier = try #require(pairing.contentIdentifier)
        #expect(abs((pairing.stillImageTime ?? -1) - movie.display) < 0.01)
        let photo = try #require(watcher.photoData)
        #expect(try ExifReader.read(jpeg: photo).appleContentIdentifier == identifier)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["live.mov"], "no temporary files")
        if ExternalTool.exiftool.isInstalled {
            let still = try ExternalTool.exiftool.run(["-s", "-s", "-s", "-MakerNotes:all"], file: photo, fileExtension: "jpg")
            #expect(String(decoding: still.standardOutput, as: UTF8.self).contains(identifier))
            let tags = try ExternalTool.exiftool.run(["-s", "-ContentIdentifier"], file: data, fileExtension: "mov")
            #expect(String(decoding: tags.standardOutput, as: UTF8.self).contains(identifier))
        }
        if ExternalTool.ffprobe.isInstalled {
            let probe = try ExternalTool.ffprobe.run(["-v", "error", "-show_streams", "-of", "json"], file: data, fileExtension: "mov")
            let json = try #require(try JSONSerialization.jsonObject(with: probe.standardOutput) as? [String: Any])
            let streams = try #require(json["streams"] as? [[String: Any]])
            #expect(streams.contains { $0["codec_name"] as? String == "h264" && $0["color_space"] as? String == "smpte170m" },
                    "the stream's 352×288 frames are SD: BT.601, and the movie says so")
            #expect(streams.contains { $0["codec_type"] as? String == "data" }, "the still-image-time track")
            #expect(streams.contains { $0["codec_name"] as? String == "aac" }, "the microphone's sound")
        }
    }

    /// The movie's frame at `photoDisplayTime` shows the still's moment: around the swinging pendulum it
    /// matches the still better than the frames half a second (a quarter swing) before and after.
    @Test(.enabled(if: ExternalTool.ffprobe.isInstalled && ExternalTool("ffmpeg").isInstalled, "ffmpeg not installed"))
    func theFrameAtTheDisplayTimeIsTheStillsMoment() throws {
        let (session, output) = try Self.running()
        defer { session.stopRunning() }
        // Held in portrait: the still says so in EXIF, the movie in its track's display matrix.
        output.connection(with: .video)?.videoRotationAngle = 90
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (watcher, url) = Self.take(output, name: "moment.mov", in: folder)
        let movie = try #require(watcher.movie)
        let still = try JPEGDecoder.decode(try #require(watcher.photoData))
        #expect(still.width == 352 && still.height == 288)
        // The pendulum's box on this readout (rest position ± the swing).
        let camera = SimulatedCamera(module: .backWide, scene: .default, seed: 1)
        let size = Size(width: 352, height: 288)
        let pivot = try #require(camera.pixelLocation(of: Pendulum.pivot, size: size))
        let bob = try #require(camera.pixelLocation(of: Pendulum.bobCenter(at: 0), size: size))
        let reach = Int((bob.y - pivot.y) * 0.35) + 6
        let xs = max(0, Int(bob.x) - reach)..<min(352, Int(bob.x) + reach), ys = max(0, Int(pivot.y))..<min(288, Int(bob.y) + 8)
        func frame(at seconds: Double) throws -> [UInt8] { try Self.frame(of: url, at: seconds) }
        func difference(_ rgb: [UInt8]) -> Double {
            guard rgb.count == 352 * 288 * 3 else { return .infinity }
            var sum = 0
            for y in ys { for x in xs { for c in 0..<3 { sum += abs(Int(rgb[3 * (y * 352 + x) + c]) - Int(still.storage[3 * (y * 352 + x) + c])) } } }
            return Double(sum) / Double(xs.count * ys.count * 3)
        }
        // Players turn the movie as the still's EXIF orientation turns the still (6: 90° clockwise, portrait).
        let rotation = try ExternalTool.ffprobe.run(["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                     "stream_side_data=rotation", "-of", "csv=p=0", url.path])
        #expect(String(decoding: rotation.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "-90")
        // The movie lasts what the delegate was told (its last frame included).
        let length = try ExternalTool.ffprobe.run(["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
        let seconds = Double(String(decoding: length.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(seconds.map { abs($0 - movie.duration) < 0.002 } == true, "file \(seconds ?? -1) s, delegate \(movie.duration) s")
        let at = difference(try frame(at: movie.display))
        let before = difference(try frame(at: max(0, movie.display - 0.5))), after = difference(try frame(at: movie.display + 0.5))
        print("pendulum region, mean difference from the still: \(at) at the display time, \(before) 0.5 s before, \(after) after")
        #expect(at.isFinite && before.isFinite && after.isFinite, "three frames decoded")
        #expect(at < before && at < after, "mean difference around the pendulum: \(at) at the display time, \(before) before, \(after) after")
    }

    /// A mirrored connection (a front camera's) mirrors the movie as the still's EXIF orientation mirrors the still:
    /// about the displayed picture's vertical axis, so across the stored rows when the movie is turned a quarter.
    @Test(.enabled(if: ExternalTool("ffmpeg").isInstalled, "ffmpeg not installed"), arguments: [0, 90])
    func aMirroredConnectionMirrorsTheMovieAsTheStill(rotation: Int) throws {
        let (session, output) = try Self.running()
        defer { session.stopRunning() }
        let connection = try #require(output.connection(with: .video))
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        connection.videoRotationAngle = CGFloat(rotation)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (watcher, url) = Self.take(output, name: "mirrored.mov", in: folder)
        let movie = try #require(watcher.movie)
        let photo = try #require(watcher.photoData)
        #expect(try ExifReader.read(jpeg: photo).orientation == (rotation == 0 ? 2 : 5))
        let still = try JPEGDecoder.decode(photo)
        let rgb = try Self.frame(of: url, at: movie.display)
        try #require(rgb.count == 352 * 288 * 3)
        /// Mean difference of the stored frame from the still's stored pixels read at (x, y) → `source`.
        func difference(_ source: (Int, Int) -> (Int, Int)) -> Double {
            var sum = 0
            for y in stride(from: 0, to: 288, by: 2) {
                for x in stride(from: 0, to: 352, by: 2) {
                    let (sx, sy) = source(x, y)
                    for c in 0..<3 { sum += abs(Int(rgb[3 * (y * 352 + x) + c]) - Int(still.storage[3 * (sy * 352 + sx) + c])) }
                }
            }
            return Double(sum) / Double(176 * 144 * 3)
        }
        let expected = rotation == 0 ? difference { (351 - $0, $1) } : difference { ($0, 287 - $1) }
        let unmirrored = difference { ($0, $1) }
        #expect(expected < 12 && expected * 3 < unmirrored, "mirrored \(expected), as stored \(unmirrored)")
    }

    @Test func liveRulesGiveTypedErrors() throws {
        let (session, output) = Self.rig()
        session.sessionPreset = .photo
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings()
        settings.livePhotoMovieFileURL = FileManager.default.temporaryDirectory.appendingPathComponent("x.mov")
        #expect(throws: PhotoSettingsError.featureNotEnabled("Live Photo capture")) { try output.validate(settings) }
        output.isLivePhotoCaptureEnabled = true
        let badURL = AVCapturePhotoSettings()
        badURL.livePhotoMovieFileURL = URL(fileURLWithPath: "/no/such/folder/x.mov")
        #expect(throws: PhotoSettingsError.self) { try output.validate(badURL) }
        output.isLivePhotoCaptureSuspended = true
        let suspended = AVCapturePhotoSettings()
        suspended.livePhotoMovieFileURL = FileManager.default.temporaryDirectory.appendingPathComponent("y.mov")
        #expect(throws: PhotoSettingsError.livePhotoCaptureSuspended) { try output.validate(suspended) }
    }
}

@Suite(.serialized) struct ZeroShutterLagTests {
    /// With the stream running, a zero-shutter-lag photo is the frame in progress at the call (its timestamp
    /// at or before the call); without, the exposure starts after the call.
    @Test func theTimestampPrecedesTheCallOnlyWithZeroShutterLag() async throws {
        let output = AVCapturePhotoOutput()
        let rig = StreamRig(frameRate: 30, extraOutputs: [output])
        #expect(output.isZeroShutterLagSupported && output.isZeroShutterLagEnabled, "on by default")
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        _ = rig.collector.waitFor(3)
        let clock = try #require(rig.session.synchronizationClock)
        var lags: [Bool: Double] = [:]
        for zsl in [true, false] {
            output.isZeroShutterLagEnabled = zsl
            let call = CMClockGetTime(clock).seconds
            let result = try await output.capturePhotos(with: AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg]))
            let stamp = try #require(result.photos.first?.timestamp.seconds)
            lags[zsl] = stamp - call
        }
        let withZSL = try #require(lags[true]), without = try #require(lags[false])
        #expect(withZSL <= 0 && withZSL > -1.0 / 30 - 1e-3, "zero shutter lag: \(withZSL) s")
        #expect(without > 0, "without: \(without) s")
    }
}

@Suite(.serialized) struct LivePhotoBehaviourTests {
    static func settings(_ url: URL) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.livePhotoMovieFileURL = url
        return settings
    }

    @Test func severalInFlightEachGetTheirOwnMovieInOrder() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watchers = (0..<3).map { _ in LivePhotoWatcher() }
        for (i, watcher) in watchers.enumerated() {
            output.capturePhoto(with: Self.settings(folder.appendingPathComponent("live-\(i).mov")), delegate: watcher)
            Thread.sleep(forTimeInterval: 0.3)
        }
        for watcher in watchers { watcher.wait() }
        var identifiers: Set<String> = []
        for watcher in watchers {
            #expect(watcher.events == ["willBegin", "willCapture", "didCapture", "photo", "recorded", "movie", "finish"])
            let movie = try #require(watcher.movie)
            #expect(movie.error == nil)
            #expect(movie.duration > 2.7 && abs(movie.display - 1.5) < 0.15, "\(movie.duration) s, still at \(movie.display) s")
            identifiers.insert(try #require(try LivePhotoMovieAtoms.read(Data(contentsOf: movie.url)).contentIdentifier))
        }
        #expect(identifiers.count == 3, "one content identifier per Live Photo")
    }

    @Test func suspensionEndsTheMovieAtThatMoment() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: Self.settings(folder.appendingPathComponent("cut.mov")), delegate: watcher)
        Thread.sleep(forTimeInterval: 0.5)
        output.isLivePhotoCaptureSuspended = true
        watcher.wait()
        output.isLivePhotoCaptureSuspended = false
        let movie = try #require(watcher.movie)
        #expect(movie.error == nil)
        let after = movie.duration - movie.display
        #expect(after > 0.2 && after < 0.9, "recorded \(after) s after the still, not 1.5 s")
    }

    /// Stopping the session during the post-roll ends the movie with the last frame the camera gave: no frame is held
    /// and no sound made up after the camera stopped.
    @Test func stoppingTheSessionEndsTheMovieWithItsLastFrame() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: Self.settings(folder.appendingPathComponent("stopped.mov")), delegate: watcher)
        Thread.sleep(forTimeInterval: 0.4)
        session.stopRunning()
        watcher.wait()
        let movie = try #require(watcher.movie)
        #expect(movie.error == nil)
        let after = movie.duration - movie.display
        #expect(after > 0.1 && after < 0.9, "recorded \(after) s after the still, not 1.5 s")
    }

    /// Session time `seconds` from now on the session's synchronisation clock.
    static func sessionTime(_ session: AVCaptureSession, in seconds: Double) -> CMTime {
        CMTime(seconds: session.synchronizationClock!.time.seconds + seconds, preferredTimescale: 1_000_000_000)
    }

    @Test(arguments: [true, false])
    func autoTrimmingCutsTheMovieWhereThePhoneIsLowered(trimming: Bool) throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let device = try #require(output.currentDevice)
        defer { device.removeSimulatedCameraSwings() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(output.isLivePhotoAutoTrimmingEnabled, "on by default")
        output.isLivePhotoAutoTrimmingEnabled = trimming
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: Self.settings(folder.appendingPathComponent("lowered.mov")), delegate: watcher)
        device.simulateCameraSwing(at: Self.sessionTime(session, in: 0.6), pitchDegrees: 40, duration: 0.5)
        watcher.wait()
        let movie = try #require(watcher.movie)
        #expect(movie.error == nil)
        let after = movie.duration - movie.display
        if trimming {
            #expect(after > 0.4 && after < 0.85, "trimmed \(after) s after the still (lowered ≈ 0.6 s after it)")
            #expect(movie.display > 1.3, "the pre-roll is kept: \(movie.display) s")
        } else {
            #expect(after > 1.35, "untrimmed: \(after) s after the still")
        }
    }

    @Test func autoTrimmingStartsAfterThePhoneWasRaised() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let device = try #require(output.currentDevice)
        defer { device.removeSimulatedCameraSwings() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Raised (tilted up from the floor) over 0.4 s, then held still for about half a second before the shot.
        device.simulateCameraSwing(at: Self.sessionTime(session, in: 0.1), pitchDegrees: -40, duration: 0.4)
        Thread.sleep(forTimeInterval: 1.0)
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: Self.settings(folder.appendingPathComponent("raised.mov")), delegate: watcher)
        watcher.wait()
        let movie = try #require(watcher.movie)
        #expect(movie.error == nil)
        #expect(movie.display > 0.25 && movie.display < 0.8, "the movie starts after the raise: still at \(movie.display) s")
        #expect(movie.duration - movie.display > 1.35)
    }

    @Test func anUnwritableDestinationFailsTheMovieButDeliversTheStill() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let watcher = LivePhotoWatcher()
        let url = URL(fileURLWithPath: "/proc/opencapture-live-\(UUID().uuidString).mov")   // a folder nobody may write in
        output.capturePhoto(with: Self.settings(url), delegate: watcher)
        watcher.wait()
        #expect(watcher.photoData != nil, "the still arrives")
        #expect(watcher.events.last == "finish")
        let movie = try #require(watcher.movie)
        #expect((movie.error as? AVError)?.code == .noDataCaptured, "the movie callback carries an AVError: \(String(describing: movie.error))")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    /// A file already at the movie's URL is kept: the movie callback carries the error, the still still arrives.
    @Test func anExistingFileAtTheMovieURLIsKept() throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("taken.mov")
        try Data("another capture's movie".utf8).write(to: url)
        let watcher = LivePhotoWatcher()
        output.capturePhoto(with: Self.settings(url), delegate: watcher)
        watcher.wait()
        #expect(watcher.photoData != nil, "the still arrives")
        let movie = try #require(watcher.movie)
        let error = try #require(movie.error, "the movie callback carries the error")
        #expect((error as? AVError)?.code == .fileAlreadyExists, "\(error)")
        #expect(try Data(contentsOf: url) == Data("another capture's movie".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["taken.mov"], "no temporary file left")
    }

    /// The microphone's clock ticks on whole seconds of the session clock; in the movie they fall where the
    /// movie's clock says (its start = the photo's timestamp − photoDisplayTime).
    @Test(.enabled(if: ExternalTool("ffmpeg").isInstalled, "ffmpeg not installed"))
    func theSoundIsInSyncWithThePicture() async throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("sound.mov")
        let result = try await output.capturePhotos(with: Self.settings(url))
        let stamp = try #require(result.photos.first?.timestamp.seconds)
        let pairing = try LivePhotoMovieAtoms.read(Data(contentsOf: url))
        let movieStart = stamp - (pairing.stillImageTime ?? 0)
        let pcm = try ExternalTool("ffmpeg").run(["-v", "error", "-i", url.path, "-f", "s16le", "-ac", "1", "-ar", "48000", "-"]).standardOutput
        let samples = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        #expect(samples.count > 48_000 * 2, "\(samples.count) samples")
        // Loudest 5 ms window: a tick. Its time on the session clock is within 20 ms of a whole second.
        let window = 240
        var best = (energy: 0.0, index: 0)
        for start in stride(from: 0, to: samples.count - window, by: window / 2) {
            let energy = samples[start..<(start + window)].reduce(0.0) { $0 + Double($1) * Double($1) }
            if energy > best.energy { best = (energy, start) }
        }
        let tickTime = movieStart + Double(best.index) / 48_000
        let offset = tickTime - tickTime.rounded()
        #expect(abs(offset) < 0.03, "tick at \(tickTime) s on the session clock")
    }
}

@Suite(.serialized) struct LivePhotoMetadataTests {
    @Test func appMetadataReachesTheMovieAndTheContentIdentifierIsTheSystems() async throws {
        let (session, output) = try LivePhotoTests.running()
        defer { session.stopRunning() }
        let folder = try LivePhotoTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = LivePhotoBehaviourTests.settings(folder.appendingPathComponent("meta.mov"))
        let author = AVMutableMetadataItem()
        author.identifier = .quickTimeMetadataAuthor
        author.value = "Ada" as NSString
        let place = AVMutableMetadataItem()
        place.keySpace = .common
        place.key = AVMetadataKey.commonKeyLocation.rawValue as NSString
        place.value = "+48.8577+002.2950/" as NSString
        #expect(place.identifier == .commonIdentifierLocation && author.commonKey == .commonKeyAuthor)
        settings.livePhotoMovieMetadata = [author, place]
        let copy = AVCapturePhotoSettings(from: settings)
        #expect(copy.livePhotoMovieMetadata.count == 2)
        _ = try await output.capturePhotos(with: settings)
        let metadata = try LivePhotoMovieAtoms.read(Data(contentsOf: folder.appendingPathComponent("meta.mov"))).metadata
        #expect(metadata["com.apple.quicktime.author"] == "Ada")
        #expect(metadata["com.apple.quicktime.location.ISO6709"] == "+48.8577+002.2950/")
        #expect(metadata["com.apple.quicktime.make"] == "OpenCapture")
        #expect(metadata[LivePhotoMovieAtoms.contentIdentifierKey] != nil)

        let forged = LivePhotoBehaviourTests.settings(folder.appendingPathComponent("forged.mov"))
        let identifier = AVMutableMetadataItem()
        identifier.identifier = .quickTimeMetadataContentIdentifier
        identifier.value = "mine" as NSString
        forged.livePhotoMovieMetadata = [identifier]
        #expect(throws: PhotoSettingsError.self) { try output.validate(forged) }
        forged.livePhotoMovieMetadata = nil
        #expect(forged.livePhotoMovieMetadata.isEmpty, "null_resettable")
    }
}
