import CameraSimulation
import CaptureCore
@testable import CaptureEngine
import Testing

/// The engine's real-time pacing of the sensor.
struct CaptureEngineTests {
    /// A frame of 1/15 s exposure: 66.7 ms plus the 4 ms readout gap.
    static let exposure = SensorExposure(size: Size(width: 320, height: 240), duration: 1.0 / 15, iso: 100, startTime: 2.0)
    static let interval = CapturePlanner.frameInterval(1.0 / 15)

    @Test func offTheLiveClockAFrameEndsAnIntervalAfterTheSensorTakesIt() {
        let end = CaptureEngine.frameEnd(Self.exposure, live: false, clockOrigin: 5_000_000_000, takenAt: 9_000_000_000)
        #expect(end == 9_000_000_000 + UInt64(Self.interval * 1e9))
    }

    /// On the live clock a frame ends at its slot's start plus its interval on the session clock, so a zero shutter lag
    /// photo, whose frame was already exposing at the call, waits only for the rest of it.
    @Test func onTheLiveClockAFrameEndsWithItsSlot() {
        let origin: UInt64 = 5_000_000_000
        let end = CaptureEngine.frameEnd(Self.exposure, live: true, clockOrigin: origin, takenAt: 0)
        #expect(end == origin + UInt64((2.0 + Self.interval) * 1e9))
        // The call 30 ms into the slot: 40.7 ms are left, not a whole 70.7 ms interval.
        let call = origin + 2_030_000_000
        #expect(abs(Double(end - call) / 1e9 - (Self.interval - 0.030)) < 1e-6)
    }

    /// A zero shutter lag request planned 30 ms into a stream slot takes that slot's frame, which ends before a whole
    /// interval from the call (without zero shutter lag it would end a whole interval after it).
    @Test func zeroShutterLagFrameEndsBeforeAWholeIntervalFromTheCall() {
        var request = CapturePlannerTests.request()
        request.liveTiming = LiveTiming(callTime: 3.03, zeroShutterLag: true, streamStart: 1.0, frameInterval: 1.0 / 30)
        let frame = CapturePlanner.plan(request).exposures[0]
        #expect(frame.startTime <= 3.03 && frame.startTime > 3.03 - 1.0 / 30)
        let callUptime = request.clockOrigin + 3_030_000_000
        let end = CaptureEngine.frameEnd(frame, live: true, clockOrigin: request.clockOrigin, takenAt: callUptime)
        let interval = CapturePlanner.frameInterval(frame.duration)
        // (The room's 20 ms exposure from the slot's start at 3.0 s is read out by 3.024 s, before the call: no wait.)
        #expect(end == request.clockOrigin + UInt64((frame.startTime + interval) * 1e9))
        #expect(end < callUptime + UInt64(interval * 1e9))
    }

    @Test func aFrameWithNoUsableStartIsPacedFromWhenItIsTaken() {
        var frame = Self.exposure
        frame.startTime = -.infinity
        #expect(CaptureEngine.frameEnd(frame, live: true, clockOrigin: 7, takenAt: 100) == 100 + UInt64(Self.interval * 1e9))
    }
}
