import CaptureCore
import Foundation
@testable import OpenCapture

/// A session at a small video size with a video data output, so stream tests run in real time.
struct StreamRig {
    let session: AVCaptureSession
    let device: AVCaptureDevice
    let videoOutput: AVCaptureVideoDataOutput
    let collector: FrameCollector
    let queue = DispatchQueue(label: "StreamRig.frames")

    init(preset: AVCaptureSession.Preset = .cif352x288, frameRate: Int32 = 30, pixelFormat: OSType? = nil, seed: UInt64 = 11,
         extraOutputs: [AVCaptureOutput] = [], delegateWork: Double = 0) {
        device = AVCaptureDevice.makeSimulatedDevice(.builtInWideAngleCamera, position: .back)!
        device.simulationSeed = seed
        session = AVCaptureSession()
        videoOutput = AVCaptureVideoDataOutput()
        collector = FrameCollector(work: delegateWork)
        if let pixelFormat { videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
        videoOutput.setSampleBufferDelegate(collector, queue: queue)
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(try! AVCaptureDeviceInput(device: device))
        session.addOutput(videoOutput)
        for output in extraOutputs { session.addOutput(output) }
        session.commitConfiguration()
        try! device.lockForConfiguration()
        device.activeVideoMinFrameDuration = CMTime(value: 1, timescale: frameRate)
        device.unlockForConfiguration()
    }
}

/// Collects delivered and dropped frames' timestamps and sizes.
final class FrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSCondition()
    private(set) var times: [Double] = []
    private(set) var dropped: [Double] = []
    private(set) var last: CMSampleBuffer?
    private let work: Double

    init(work: Double) { self.work = work }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if work > 0 { Thread.sleep(forTimeInterval: work) }
        lock.withLock {
            times.append(sampleBuffer.presentationTimeStamp.seconds)
            last = sampleBuffer
            lock.broadcast()
        }
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { dropped.append(sampleBuffer.presentationTimeStamp.seconds) }
    }

    /// Waits until `count` frames arrived (or `timeout` seconds); returns their times.
    func waitFor(_ count: Int, timeout: Double = 30) -> [Double] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock(); defer { lock.unlock() }
        while times.count < count { if !lock.wait(until: deadline) { break } }
        return times
    }

    var snapshot: (times: [Double], dropped: [Double], last: CMSampleBuffer?) { lock.withLock { (times, dropped, last) } }
}
