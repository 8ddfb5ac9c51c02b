import Testing
@testable import CaptureCore

@Suite struct TransferFunctionTests {
    @Test func roundTripsEveryEightBitCode() {
        for code in 0...255 {
            let encoded = Float(code) / 255
            let back = SRGBTransfer.encode(SRGBTransfer.decode(encoded))
            #expect(abs(back - encoded) < 2e-6, "code \(code)")
            #expect(SRGBTransfer.decodeTable8[code] == SRGBTransfer.decode(encoded))
        }
        for i in 0...1_000 {
            let linear = Float(i) / 1_000
            #expect(abs(SRGBTransfer.decode(SRGBTransfer.encode(linear)) - linear) < 1e-5)
        }
    }

    @Test func knownValuesAndContinuity() {
        #expect(SRGBTransfer.encode(0) == 0 && abs(SRGBTransfer.encode(1) - 1) < 1e-6 && SRGBTransfer.encode(1) <= 1)
        #expect(abs(SRGBTransfer.decode(1) - 1) < 1e-6)
        #expect(abs(SRGBTransfer.encode(0.18) - 0.461_356) < 1e-5)   // 18 % grey → 118/255
        #expect(abs(SRGBTransfer.decode(0.5) - 0.214_041) < 1e-5)
        // The linear toe and the power segment meet at the break points.
        #expect(abs(12.92 * 0.0031308 - SRGBTransfer.encode(0.003_130_9)) < 1e-5)
        #expect(abs(0.04045 / 12.92 - SRGBTransfer.decode(0.040_451)) < 1e-6)
    }

    @Test func clampsAndIsMonotonic() {
        #expect(SRGBTransfer.encode(-1) == 0 && SRGBTransfer.encode(7) == SRGBTransfer.encode(1))
        #expect(SRGBTransfer.decode(-1) == 0 && abs(SRGBTransfer.decode(7) - 1) < 1e-6)
        let table = SRGBTransfer.decodeTable8
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 < $1 })
    }
}
