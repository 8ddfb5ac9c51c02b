import Foundation
import Testing
@testable import OpenCapture

/// Clocks: a device handler's host-clock time converted to the session's clock falls where that clock read it.
@Suite struct CMClockTests {
    @Test func hostTimeConvertsToTheSessionsClock() throws {
        let session = AVCaptureSession()
        usleep(20_000)   // the session's clock starts behind the host clock by its age
        let clock = try #require(session.synchronizationClock)
        let before = CMClockGetTime(clock)
        let host = CMClockGetTime(CMClockGetHostTimeClock())
        let after = CMClockGetTime(clock)
        let converted = CMSyncConvertTime(host, from: CMClockGetHostTimeClock(), to: clock)
        #expect(before.seconds <= converted.seconds && converted.seconds <= after.seconds)
        #expect(host.seconds - converted.seconds > 0.02)
        // And back.
        #expect(CMSyncConvertTime(converted, from: clock, to: CMClockGetHostTimeClock()) == host)
    }
}
