import Testing
@testable import CaptureCore

@Suite struct FourCCTests {
    @Test func roundTripsText() {
        #expect(FourCC.bgra32.rawValue == 0x4247_5241)
        #expect(FourCC("rgg4" as String)?.description == "rgg4")
        #expect(FourCC("toolong" as String) == nil)
        #expect(FourCC(rawValue: 24).description == "24")
    }
}
