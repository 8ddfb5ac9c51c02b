import CaptureCore

/// xoshiro256** inlined into the noise kernel; seeded from a `RandomSource(seed:stream:)` so every band
/// keeps its own reproducible stream (CaptureCore's generator is not inlinable across modules).
struct NoiseStream {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    init(_ source: RandomSource) {
        var source = source
        s0 = source.next(); s1 = source.next(); s2 = source.next(); s3 = source.next()
        if s0 | s1 | s2 | s3 == 0 { s0 = 1 }
    }

    @inline(__always)
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }
}

