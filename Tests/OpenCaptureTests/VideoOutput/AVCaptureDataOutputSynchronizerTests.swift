import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// Collects a synchronizer's collections.
final class SynchronizedCollector: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    private let lock = NSCondition()
    private var _collections: [AVCaptureSynchronizedDataCollection] = []
    var collections: [AVCaptureSynchronizedDataCollection] { lock.withLock { _collections } }

    func dataOutputSynchronizer(_ synchronizer: AVCaptureDataOutputSynchronizer,
                                didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection) {
        lock.withLock {
            _collections.append(synchronizedDataCollection)
            lock.broadcast()
        }
    }

    /// Waits until `count` collections with a map arrived (or `timeout` seconds); returns all so far.
    func waitForMaps(_ count: Int, depth: AVCaptureDepthDataOutput, timeout: Double = 60) -> [AVCaptureSynchronizedDataCollection] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while _collections.filter({ $0[depth] != nil }).count < count { if !lock.wait(until: deadline) { break } }
        return _collections
    }
}

@Suite(.serialized) struct AVCaptureDataOutputSynchronizerTests {
    /// TrueDepth video frames with the maps measured with them, as Apple's "Streaming Depth Data" sample takes them:
    /// one collection a frame, in time order, the map (5 a second) in the collection of its frame, and nothing for the
    /// outputs' own delegates while synchronized.
    @Test func videoFramesComeWithTheMapsMeasuredWithThem() throws {
        let rig = DepthCaptureTests.depthRig(.builtInTrueDepthCamera, position: .front)
        defer { rig.session.stopRunning() }
        let video = AVCaptureVideoDataOutput(), depth = AVCaptureDepthDataOutput()
        let frames = FrameCollector(work: 0), maps = DepthCollector()
        video.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "video"))
        depth.setDelegate(maps, callbackQueue: DispatchQueue(label: "depth"))
        rig.session.addOutput(video)
        rig.session.addOutput(depth)
        try rig.device.lockForConfiguration()
        rig.device.activeDepthDataMinFrameDuration = CMTime(value: 1, timescale: 5)
        rig.device.unlockForConfiguration()
        let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [video, depth])
        let collector = SynchronizedCollector()
        synchronizer.setDelegate(collector, queue: DispatchQueue(label: "synchronized"))
        #expect(synchronizer.dataOutputs.count == 2 && synchronizer.dataOutputs[0] === video)
        #expect(synchronizer.delegate === collector)
        rig.session.stopRunning()
        rig.session.startRunning()

        let collections = collector.waitForMaps(3, depth: depth)
        let withMaps = collections.filter { $0[depth] != nil }
        try #require(withMaps.count >= 3)
        let times = collections.compactMap { $0[video]?.timestamp.seconds }
        #expect(times.count == collections.count, "every collection has its video frame")
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 }, "in time order")
        for collection in withMaps {
            let frame = try #require(collection.synchronizedData(for: video) as? AVCaptureSynchronizedSampleBufferData)
            let map = try #require(collection[depth] as? AVCaptureSynchronizedDepthData)
            #expect(map.timestamp == frame.timestamp, "the map was measured with this frame")
            #expect(frame.sampleBuffer.presentationTimeStamp == frame.timestamp)
            #expect(collection.count == 2 && Array(collection).first === video)
            if !map.depthDataWasDropped {
                #expect(map.droppedReason == .none)
                #expect(map.depthData.depthDataMap.width > 0)
            }
        }
        // Between maps (5 a second against 30 frames) the depth output has nothing.
        #expect(collections.contains { $0[depth] == nil && $0.count == 1 })
        #expect(frames.snapshot.times.isEmpty && maps.snapshot.maps.isEmpty, "the outputs' own delegates are overridden")

        // Given back: the video output's own delegate hears from it again.
        synchronizer.setDelegate(nil, queue: nil)
        #expect(frames.waitFor(3).count >= 3)
    }

    /// A synchronizer let go gives the outputs back to their own delegates, as `setDelegate(nil, queue: nil)` does.
    @Test func aSynchronizerLetGoGivesTheOutputsBack() throws {
        let rig = StreamRig()
        defer { rig.session.stopRunning() }
        let collector = SynchronizedCollector()
        do {
            let synchronizer = AVCaptureDataOutputSynchronizer(dataOutputs: [rig.videoOutput])
            synchronizer.setDelegate(collector, queue: DispatchQueue(label: "synchronized"))
            rig.session.startRunning()
            let start = Date()
            while collector.collections.count < 3, Date().timeIntervalSince(start) < 30 { Thread.sleep(forTimeInterval: 0.05) }
            #expect(collector.collections.count >= 3)
            #expect(rig.collector.snapshot.times.isEmpty, "overridden while synchronized")
        }
        let before = rig.collector.snapshot.times.count
        #expect(rig.collector.waitFor(before + 3).count >= before + 3)
    }

    /// Only data outputs can be synchronized: a photo output is reported and left out.
    @Test func aPhotoOutputIsLeftOut() throws {
        let rig = CaptureRig(preset: .vga640x480)
        defer { rig.session.stopRunning() }
        let video = AVCaptureVideoDataOutput()
        rig.session.addOutput(video)
        let collector = SynchronizedCollector()
        let reported = DiagnosticsRecorder.reports(containing: "AVCapturePhotoOutput") {
            AVCaptureDataOutputSynchronizer(dataOutputs: [video, rig.output]).setDelegate(collector, queue: DispatchQueue(label: "s"))
        }
        #expect(reported.count == 1)
    }
}
