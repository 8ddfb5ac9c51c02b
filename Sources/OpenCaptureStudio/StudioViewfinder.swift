import CaptureCore
import Foundation
import MediaFormats
import OpenCapture

/// The live viewfinder: a video data output on the studio's session whose frames (BGRA) are shrunk 3× and
/// JPEG-encoded, at most `maxRate` a second, for every open `/api/viewfinder.mjpg` stream.
final class StudioViewfinder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `subscribers`, `nextID` and `lastSent`, the only mutable fields.
    private let lock = NSLock()
    private var subscribers: [Int: Subscriber] = [:]
    private var nextID = 0
    private var lastSent = 0.0
    static let maxRate = 12.0
    /// Seconds a viewer may take no frame before it is let go (its connection open but unread: a stopped tab, a stuck
    /// proxy), so the camera does not stream for nobody.
    let stallLimit: Double
    /// The output to put in the session (its delegate is this object).
    let output = AVCaptureVideoDataOutput()
    let queue = DispatchQueue(label: "OpenCapture.Studio.viewfinder")

    /// One viewer: where its frames go, when it last took one (system uptime), what to do if it stops taking them.
    private struct Subscriber {
        let continuation: AsyncStream<Data>.Continuation
        var lastTaken: Double
        let onStall: @Sendable () -> Void
    }

    init(stallLimit: Double = 10) {
        self.stallLimit = stallLimit
        super.init()
        output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        output.setSampleBufferDelegate(self, queue: queue)
    }

    /// JPEG frames from now on, and the subscription's number. A subscriber that takes no frame for `stallLimit`
    /// seconds while frames come is ended (its stream finishes) and `onStall` is called.
    func subscribe(onStall: @escaping @Sendable () -> Void = {}) -> (id: Int, frames: AsyncStream<Data>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self, bufferingPolicy: .bufferingNewest(1))
        let now = ProcessInfo.processInfo.systemUptime
        let id = lock.withLock {
            nextID += 1
            subscribers[nextID] = Subscriber(continuation: continuation, lastTaken: now, onStall: onStall)
            return nextID
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self.subscribers[id] = nil }
        }
        return (id, stream)
    }

    func end(_ id: Int) { lock.withLock { subscribers.removeValue(forKey: id) }?.continuation.finish() }

    var subscriberCount: Int { lock.withLock { subscribers.count } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = sampleBuffer.imageBuffer else { return }
        deliver(pixels, at: sampleBuffer.presentationTimeStamp.seconds)
    }

    /// Sends a frame of presentation time `t` to every subscriber, at most `maxRate` a second. Each session has its
    /// own clock from 0, so a frame earlier than the last one sent comes from a new session (another camera or
    /// lighting) and is sent: waiting for its clock to pass the old one's kept the viewfinder black for as long as
    /// the previous session had run.
    /// A viewer whose last frame is still unread `stallLimit` seconds after it last took one is ended.
    func deliver(_ pixels: PixelBuffer, at t: Double) {
        let targets = lock.withLock { () -> [(Int, AsyncStream<Data>.Continuation)] in
            guard !subscribers.isEmpty, t < lastSent || t - lastSent >= 1 / Self.maxRate else { return [] }
            lastSent = t
            return subscribers.map { ($0.key, $0.value.continuation) }
        }
        guard !targets.isEmpty, let jpeg = Self.jpeg(pixels) else { return }
        let now = ProcessInfo.processInfo.systemUptime
        var stalled: [Subscriber] = []
        for (id, continuation) in targets {
            // Room for the frame means the viewer took the one before (the buffer holds one).
            let taken: Bool
            switch continuation.yield(jpeg) {
            case .enqueued: taken = true
            case .dropped: taken = false
            case .terminated: continue
            @unknown default: continue
            }
            lock.withLock {
                if taken { subscribers[id]?.lastTaken = now }
                if !taken, let subscriber = subscribers[id], now - subscriber.lastTaken > stallLimit {
                    subscribers[id] = nil
                    stalled.append(subscriber)
                }
            }
        }
        for subscriber in stalled {
            subscriber.continuation.finish()
            subscriber.onStall()
        }
    }

    /// A BGRA frame averaged over 3×3 blocks into RGB, as a JPEG.
    static func jpeg(_ buffer: PixelBuffer) -> Data? {
        guard buffer.pixelFormat == .bgra32, let base = buffer.baseAddress(ofPlane: 0) else { return nil }
        let w = buffer.width / 3, h = buffer.height / 3, stride = buffer.bytesPerRow
        guard w > 0, h > 0 else { return nil }
        let p = base.assumingMemoryBound(to: UInt8.self)
        var rgb = Raster<UInt8>(width: w, height: h, channels: 3)
        rgb.storage.withUnsafeMutableBufferPointer { out in
            for y in 0..<h {
                for x in 0..<w {
                    var sum = SIMD3<Int>(0, 0, 0)
                    for dy in 0..<3 {
                        let row = p + (3 * y + dy) * stride + 12 * x
                        for dx in 0..<3 { sum &+= SIMD3(Int(row[4 * dx + 2]), Int(row[4 * dx + 1]), Int(row[4 * dx])) }
                    }
                    let o = 3 * (y * w + x)
                    out[o] = UInt8(sum.x / 9); out[o + 1] = UInt8(sum.y / 9); out[o + 2] = UInt8(sum.z / 9)
                }
            }
        }
        return try? JPEGEncoder.encode(rgb, quality: 75)
    }
}
