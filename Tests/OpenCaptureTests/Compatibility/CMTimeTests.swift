import Testing
import OpenCapture

@Suite struct CMTimeTests {
    @Test func sameTimescaleArithmeticIsExact() {
        let a = CMTimeMake(value: 100, timescale: 600), b = CMTimeMake(value: 50, timescale: 600)
        let sum = a + b
        #expect(sum.value == 150 && sum.timescale == 600 && !sum.hasBeenRounded)
        #expect((a - b).value == 50)
        #expect((a * Int32(3)).value == 300)
        #expect((a * 0.5).value == 50)
    }

    @Test func mixedTimescalesUseLCM() {
        let sum = CMTimeAdd(CMTimeMake(value: 1, timescale: 3), CMTimeMake(value: 1, timescale: 4))
        #expect(sum.value == 7 && sum.timescale == 12 && !sum.hasBeenRounded)
        let capped = CMTimeAdd(CMTimeMake(value: 1, timescale: 999_999_937), CMTimeMake(value: 1, timescale: 7))
        #expect(capped.timescale == kCMTimeMaxTimescale && capped.hasBeenRounded)
    }

    @Test func comparisonAcrossTimescales() {
        #expect(CMTimeMake(value: 1, timescale: 2) == CMTimeMake(value: 2, timescale: 4))
        #expect(CMTimeMake(value: 1, timescale: 2).hashValue == CMTimeMake(value: 300, timescale: 600).hashValue)
        #expect(CMTimeMake(value: 1, timescale: 3) < CMTimeMake(value: 34, timescale: 100))
        #expect(CMTimeCompare(CMTimeMake(value: 2, timescale: 3), CMTimeMake(value: 1, timescale: 2)) == 1)
        #expect(CMTimeMaximum(.zero, CMTimeMake(value: -1, timescale: 1)) == .zero)
        #expect(CMTimeMinimum(.zero, CMTimeMake(value: -1, timescale: 1)).value == -1)
        #expect(Set([CMTimeMake(value: 1, timescale: 2), CMTimeMake(value: 5, timescale: 10)]).count == 1)
    }

    @Test func secondsRoundTrip() {
        let t = CMTimeMakeWithSeconds(1.5, preferredTimescale: 600)
        #expect(t.value == 900 && t.timescale == 600 && !t.hasBeenRounded)
        #expect(t.seconds == 1.5)
        let third = CMTime(seconds: 1.0 / 3.0, preferredTimescale: 1000)
        #expect(third.value == 333 && third.hasBeenRounded)
        #expect(CMTimeGetSeconds(CMTimeMake(value: -3, timescale: 4)) == -0.75)
    }

    @Test func convertScaleRounds() {
        let t = CMTimeMake(value: 1, timescale: 3)
        #expect(t.convertScale(10, method: .default).value == 3)
        #expect(t.convertScale(10, method: .roundAwayFromZero).value == 4)
        #expect(CMTimeMake(value: -5, timescale: 10).convertScale(1, method: .roundHalfAwayFromZero).value == -1)
        #expect(CMTimeMake(value: -5, timescale: 10).convertScale(1, method: .roundTowardNegativeInfinity).value == -1)
        #expect(CMTimeMake(value: -5, timescale: 10).convertScale(1, method: .roundTowardZero).value == 0)
        #expect(CMTimeMake(value: 7, timescale: 2).convertScale(4, method: .default) == CMTimeMake(value: 14, timescale: 4))
    }

    @Test func invalidAndInfiniteTimes() {
        #expect(!kCMTimeInvalid.isValid && kCMTimeInvalid.seconds.isNaN)
        #expect(CMTime.indefinite.isIndefinite && !CMTime.indefinite.isNumeric)
        #expect(CMTime.positiveInfinity.seconds == .infinity)
        #expect((CMTime.positiveInfinity + CMTime.negativeInfinity).isValid == false)
        #expect((CMTime.positiveInfinity + CMTimeMake(value: 5, timescale: 1)) == .positiveInfinity)
        #expect((CMTime.invalid + .zero).isValid == false)
        #expect((CMTime.indefinite + .zero).isIndefinite)
        #expect(CMTime.negativeInfinity < CMTimeMake(value: Int64.min / 2, timescale: 1))
        #expect(CMTimeMake(value: Int64.max / 2, timescale: 1) < .positiveInfinity)
        #expect(CMTime.positiveInfinity < .indefinite && CMTime.indefinite < .invalid)
        #expect(CMTime.invalid == CMTime())
        #expect(CMTimeMultiply(.positiveInfinity, multiplier: -2) == .negativeInfinity)
        #expect(!CMTimeMake(value: 1, timescale: 0).isValid)
    }

    @Test func overflowHalvesTimescale() {
        let big = CMTimeMake(value: Int64.max - 1, timescale: 1_000_000)
        let doubled = big * Int32(2)
        #expect(doubled.isNumeric && doubled.timescale < 1_000_000)
        #expect(abs(doubled.seconds - 2 * big.seconds) / doubled.seconds < 1e-9)
        let sum = big + big
        #expect(sum.isNumeric && sum.timescale == 500_000)
    }

    @Test func timeRanges() {
        let r = CMTimeRange(start: CMTimeMake(value: 1, timescale: 1), duration: CMTimeMake(value: 2, timescale: 1))
        #expect(r.end == CMTimeMake(value: 3, timescale: 1))
        #expect(r.containsTime(CMTimeMake(value: 1, timescale: 1)))
        #expect(r.containsTime(CMTimeMake(value: 2999, timescale: 1000)))
        #expect(!r.containsTime(CMTimeMake(value: 3, timescale: 1)))
        let r2 = CMTimeRange(start: CMTimeMake(value: 2, timescale: 1), end: CMTimeMake(value: 5, timescale: 1))
        #expect(r2.duration == CMTimeMake(value: 3, timescale: 1))
        #expect(r.union(r2) == CMTimeRangeMake(start: CMTimeMake(value: 1, timescale: 1), duration: CMTimeMake(value: 4, timescale: 1)))
        #expect(r.intersection(r2).duration == CMTimeMake(value: 1, timescale: 1))
        #expect(CMTimeRange.zero.isEmpty && !CMTimeRange.invalid.isValid)
    }
}
