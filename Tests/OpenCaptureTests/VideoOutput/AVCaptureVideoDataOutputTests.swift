import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

@Suite(.serialized) struct AVCaptureVideoDataOutputTests {
    @Test func framesArriveAtTheFormatsRateWithMonotonicTimestamps() throws {
        let rig = StreamRig(frameRate: 15)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let times = rig.collector.waitFor(20)
        try #require(times.count >= 20)
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 > 0 }, "timestamps increase")
        // Every step is a whole number of 1/15 s frame slots (a skipped slot shows as a double step).
        for step in steps {
            let slots = step * 15
            #expect(abs(slots - slots.rounded()) < 1e-6 && slots.rounded() >= 1, "step \(step)")
        }
        let median = steps.sorted()[steps.count / 2]
        #expect(abs(median - 1.0 / 15) < 1e-6)
        let buffer = try #require(rig.collector.snapshot.last)
        let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
        #expect(CVPixelBufferGetWidth(pixels) == 352 && CVPixelBufferGetHeight(pixels) == 288)
        #expect(CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(abs(CMSampleBufferGetDuration(buffer).seconds - 1.0 / 15) < 1e-6)
        let format = try #require(CMSampleBufferGetFormatDescription(buffer))
        #expect(CMVideoFormatDescriptionGetDimensions(format).width == 352)
    }

    /// HD frames are BT.709 Y′CbCr and SD frames BT.601, as an iPhone streams them, in either range: each buffer's
    /// attachment names the matrix its samples were converted with (and movies made of them declare).
    @Test(arguments: [(AVCaptureSession.Preset.hd1280x720, kCVImageBufferYCbCrMatrix_ITU_R_709_2),
                      (.cif352x288, kCVImageBufferYCbCrMatrix_ITU_R_601_4)])
    func yCbCrFramesNameTheirMatrix(preset: AVCaptureSession.Preset, matrix: String) throws {
        for format in [kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange] {
            let rig = StreamRig(preset: preset, frameRate: 15, pixelFormat: format)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            _ = rig.collector.waitFor(1)
            let pixels = try #require(rig.collector.snapshot.last?.imageBuffer)
            #expect(CVPixelBufferGetPixelFormatType(pixels) == format)
            #expect(CVBufferCopyAttachment(pixels, kCVImageBufferYCbCrMatrixKey, nil) as? String == matrix, "\(preset.rawValue)")
            #expect(CVBufferCopyAttachment(pixels, kCVImageBufferColorPrimariesKey, nil) as? String == kCVImageBufferColorPrimaries_ITU_R_709_2)
        }
    }

    @Test func framesShowTheRoomAndMoveWithTheHand() throws {
        let rig = StreamRig(frameRate: 30, pixelFormat: kCVPixelFormatType_32BGRA)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        var frames: [PixelBuffer] = []
        for n in [1, 12] {
            _ = rig.collector.waitFor(n)
            frames.append(try #require(rig.collector.snapshot.last?.imageBuffer))
        }
        #expect(frames[0].pixelFormat == .bgra32)
        // A lit room, not black or clipped, and two frames ⅓ s apart differ (noise and hand shake).
        func stats(_ b: PixelBuffer) -> (mean: Double, values: [UInt8]) {
            let p = b.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
            var values: [UInt8] = []
            for y in stride(from: 0, to: b.height, by: 4) { for x in stride(from: 0, to: b.width, by: 4) { values.append(p[y * b.bytesPerRow + 4 * x + 1]) } }
            return (Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count), values)
        }
        let a = stats(frames[0]), b = stats(frames[1])
        #expect(a.mean > 40 && a.mean < 220, "mean green \(a.mean)")
        let difference = zip(a.values, b.values).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(difference > a.values.count / 4, "consecutive frames differ: \(difference)")
    }

    /// A mirrored connection delivers frames mirrored about the vertical axis of the picture as shown: left to right,
    /// or (turned a quarter, the buffers not turned) top to bottom. A mirrored frame matches an earlier plain one read
    /// that way far better than as it is.
    @Test(arguments: [0, 90])
    func aMirroredConnectionDeliversMirroredFrames(rotation: Int) throws {
        let rig = StreamRig(frameRate: 30, pixelFormat: kCVPixelFormatType_32BGRA)
        rig.videoOutput.connection(with: .video)?.videoRotationAngle = CGFloat(rotation)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        _ = rig.collector.waitFor(2)
        let plain = try #require(rig.collector.snapshot.last?.imageBuffer)
        let connection = try #require(rig.videoOutput.connection(with: .video))
        connection.automaticallyAdjustsVideoMirroring = false
        connection.isVideoMirrored = true
        let count = rig.collector.snapshot.times.count
        _ = rig.collector.waitFor(count + 3)
        let mirrored = try #require(rig.collector.snapshot.last?.imageBuffer)
        func difference(flipped: Bool) -> Double {
            let a = plain.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
            let b = mirrored.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
            var sum = 0
            for y in stride(from: 0, to: plain.height, by: 2) {
                for x in stride(from: 0, to: plain.width, by: 2) {
                    let sx = flipped && rotation == 0 ? plain.width - 1 - x : x
                    let sy = flipped && rotation == 90 ? plain.height - 1 - y : y
                    sum += abs(Int(a[sy * plain.bytesPerRow + 4 * sx + 1]) - Int(b[y * mirrored.bytesPerRow + 4 * x + 1]))
                }
            }
            return Double(sum) / Double(plain.width * plain.height / 4)
        }
        let backwards = difference(flipped: true), forwards = difference(flipped: false)
        #expect(backwards * 3 < forwards, "read backwards \(backwards), as it is \(forwards)")
    }

    @Test func aBusyDelegateGetsDropsNotABacklog() throws {
        let rig = StreamRig(frameRate: 30, delegateWork: 0.1)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let times = rig.collector.waitFor(6)
        let snapshot = rig.collector.snapshot
        #expect(times.count >= 6)
        #expect(snapshot.dropped.count >= times.count, "drops \(snapshot.dropped.count) for \(times.count) delivered")
        let counts = rig.videoOutput.deliveryCounts
        #expect(counts.dropped >= snapshot.dropped.count)
    }

    /// Kept late frames queue behind a slow delegate only as far as the buffer pool goes: then they are dropped, so
    /// latency stays bounded and stopping leaves no long backlog.
    @Test func keptLateFramesQueueOnlyAsFarAsThePool() throws {
        let rig = StreamRig(frameRate: 30, delegateWork: 0.1)
        rig.videoOutput.alwaysDiscardsLateVideoFrames = false
        rig.session.startRunning()
        Thread.sleep(forTimeInterval: 1.5)
        rig.session.stopRunning()
        let atStop = rig.videoOutput.deliveryCounts
        #expect(atStop.dropped > 0, "a delegate taking 0.1 s per 1/30 s frame must lose some")
        // What is still queued at the stop drains within the pool: at most the limit more frames arrive.
        Thread.sleep(forTimeInterval: Double(AVCaptureVideoDataOutput.queuedFrameLimit) * 0.1 + 0.3)
        let arrived = rig.collector.snapshot.times.count
        #expect(arrived == atStop.delivered, "\(arrived) arrived of \(atStop.delivered) handed over: the queue drained")
        // Handed over: what the delegate could take in 1.5 s, plus at most the pool (and a frame's worth of slack).
        #expect(atStop.delivered <= Int(1.5 / 0.1) + AVCaptureVideoDataOutput.queuedFrameLimit + 2)
    }

    /// A disabled connection carries nothing to its output (Apple: no data flows through it); enabling it again resumes.
    @Test func aDisabledConnectionDeliversNoFrames() throws {
        let rig = StreamRig(frameRate: 30)
        let connection = try #require(rig.videoOutput.connection(with: .video))
        connection.isEnabled = false
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        Thread.sleep(forTimeInterval: 1.0)
        let off = rig.collector.snapshot
        #expect(off.times.isEmpty && off.dropped.isEmpty, "\(off.times.count) frames and \(off.dropped.count) drops while disabled")
        connection.isEnabled = true
        #expect(rig.collector.waitFor(3).count >= 3, "frames flow again once enabled")
    }

    @Test func settingsAndFrameDurationsFollowTheRules() throws {
        let output = AVCaptureVideoDataOutput()
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_14Bayer_RGGB]
        #expect(output.videoSettings[kCVPixelBufferPixelFormatTypeKey] as? OSType == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        #expect(output.alwaysDiscardsLateVideoFrames)
        let device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back)!
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        try device.lockForConfiguration()
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 1000)   // beyond the format: ignored
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: 24)
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 24))
        device.activeVideoMinFrameDuration = .invalid
        #expect(device.activeVideoMinFrameDuration == CMTime(value: 1, timescale: 30))
        device.unlockForConfiguration()
    }

    @Test func noStreamRunsWithoutAnOutputThatNeedsIt() {
        let rig = CaptureRig()
        #expect(rig.session.frameStream == nil)
        let video = AVCaptureVideoDataOutput()
        rig.session.addOutput(video)
        #expect(rig.session.frameStream != nil)
        rig.session.removeOutput(video)
        #expect(rig.session.frameStream == nil)
        rig.session.stopRunning()
    }
}
