import CaptureCore
import Foundation
import MediaFormats
import Synchronization
import Testing
@testable import OpenCaptureStudio

/// The viewfinder's frames (a third of the size, as JPEG, at most 12 a second, a new session's at once) and its
/// viewers: one that stops reading (its connection open, nothing taken) is let go, so the camera does not stream for
/// nobody; one that reads stays.
@Suite struct StudioViewfinderTests {
    /// A BGRA frame becomes a JPEG a third of its size whose colours are the 3×3 averages.
    @Test func framesShrinkToAThirdAsJPEG() throws {
        let buffer = try #require(PixelBuffer(width: 96, height: 72, pixelFormat: .bgra32))
        let p = buffer.baseAddress(ofPlane: 0)!.assumingMemoryBound(to: UInt8.self)
        for y in 0..<72 { for x in 0..<96 { let o = y * buffer.bytesPerRow + 4 * x; p[o] = 30; p[o + 1] = 120; p[o + 2] = 210; p[o + 3] = 255 } }
        let jpeg = try #require(StudioViewfinder.jpeg(buffer))
        let decoded = try JPEGDecoder.decode(jpeg)
        #expect(decoded.width == 32 && decoded.height == 24)
        let centre = 3 * (12 * 32 + 16)
        #expect(abs(Int(decoded.storage[centre]) - 210) < 6 && abs(Int(decoded.storage[centre + 2]) - 30) < 6, "R and B in order")
    }

    /// A new session (another camera or lighting) starts its clock at 0: its frames are sent at once, not held back
    /// until they pass the last frame of the old session (the viewfinder stayed black for minutes).
    @Test func aNewSessionsClockDoesNotHoldFramesBack() async throws {
        let finder = StudioViewfinder()
        let (_, frames) = finder.subscribe()
        let received = Locked(0)
        let reader = Task { for await _ in frames { received.withLock { $0 += 1 } } }
        defer { reader.cancel() }
        func count(reaching target: Int) async throws -> Int {
            for _ in 0..<100 where received.withLock({ $0 }) < target { try await Task.sleep(for: .milliseconds(20)) }
            return received.withLock { $0 }
        }
        let buffer = try #require(PixelBuffer(width: 96, height: 72, pixelFormat: .bgra32))
        finder.deliver(buffer, at: 300)      // the old session, five minutes in
        #expect(try await count(reaching: 1) == 1)
        finder.deliver(buffer, at: 300.02)   // sooner than 1/12 s: held back
        try await Task.sleep(for: .milliseconds(200))
        #expect(received.withLock { $0 } == 1)
        finder.deliver(buffer, at: 0.07)     // the new session's first frame
        #expect(try await count(reaching: 2) == 2)
        finder.deliver(buffer, at: 0.17)
        #expect(try await count(reaching: 3) == 3)
    }

    @Test func aViewerThatStopsReadingIsLetGo() async throws {
        let finder = StudioViewfinder(stallLimit: 0.5)
        let frame = try #require(PixelBuffer(width: 30, height: 30, pixelFormat: .bgra32))
        let stalls = Mutex(0)
        let (_, unread) = finder.subscribe(onStall: { stalls.withLock { $0 += 1 } })
        let (_, read) = finder.subscribe()
        let reader = Task { var n = 0; for await _ in read { n += 1 }; return n }
        // Frames at the viewfinder's rate for 1.2 s: the reading viewer takes them, the other takes none.
        var t = 0.0
        while t < 1.2 {
            finder.deliver(frame, at: t)
            t += 1 / StudioViewfinder.maxRate
            try await Task.sleep(for: .seconds(1 / StudioViewfinder.maxRate))
        }
        #expect(stalls.withLock { $0 } == 1)
        #expect(finder.subscriberCount == 1, "the reading viewer stays")
        // The unread stream has ended: what it buffered, then nothing.
        var buffered = 0
        for await _ in unread { buffered += 1 }
        #expect(buffered == 1)
        finder.end(2)
        let taken = await reader.value
        #expect(taken >= 5, "the reading viewer took \(taken) of 15 frames")
    }
}
