import Testing
@testable import ImagePipeline

@Suite struct ToneCurveTests {
    @Test(arguments: [ToneCurve.linear, .standard])
    func monotonicWithFixedEnds(curve: ToneCurve) {
        #expect(curve.apply(0) == 0)
        #expect(abs(curve.apply(1) - 1) < 1e-5)
        var previous: Float = -1
        for i in 0...1000 {
            let v = curve.apply(Float(i) / 1000)
            #expect(v >= previous)
            previous = v
        }
    }

    @Test func linearIsTheSRGBTransfer() {
        #expect(abs(ToneCurve.linear.apply(0.18) - 0.4614) < 1e-3)
        #expect(abs(ToneCurve.linear.apply(0.002) - 0.002 * 12.92) < 1e-6)
    }

    @Test func standardAddsMidtoneContrast() {
        // Darker shadows, brighter upper midtones than the plain transfer.
        #expect(ToneCurve.standard.apply(0.02) < ToneCurve.linear.apply(0.02))
        #expect(ToneCurve.standard.apply(0.5) > ToneCurve.linear.apply(0.5))
    }

    @Test func tableMatchesCurve() {
        let table = ToneCurve.standard.table8()
        #expect(table.count == ToneCurve.tableSize)
        #expect(table.first == 0 && table.last == 255)
        let i = 3000
        let expected = (ToneCurve.standard.apply(Float(i) / Float(ToneCurve.tableSize - 1)) * 255).rounded()
        #expect(Float(table[i]) == expected)
    }
}
