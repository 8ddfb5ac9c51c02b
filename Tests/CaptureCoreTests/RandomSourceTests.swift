import Testing
@testable import CaptureCore

@Suite struct RandomSourceTests {
    /// xoshiro256** seeded by SplitMix64, written out from Blackman and Vigna's reference C code.
    struct Reference {
        var s: [UInt64]
        init(seed: UInt64) {
            var z = seed
            s = (0..<4).map { _ in
                z &+= 0x9E37_79B9_7F4A_7C15
                var x = z
                x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
                x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
                return x ^ (x >> 31)
            }
        }
        static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
        mutating func next() -> UInt64 {
            let result = Self.rotl(s[1] &* 5, 7) &* 9
            let t = s[1] << 17
            s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
            s[3] = Self.rotl(s[3], 45)
            return result
        }
    }

    @Test func splitMixSeedingMatchesPublishedValue() {
        // SplitMix64 from state 0 first returns 0xE220A8397B1DCDAF.
        #expect(Reference(seed: 0).s[0] == 0xE220_A839_7B1D_CDAF)
    }

    @Test(arguments: [0, 1, 42, 0xDEAD_BEEF, UInt64.max])
    func matchesTheReferenceGenerator(seed: UInt64) {
        var rng = RandomSource(seed: seed), ref = Reference(seed: seed)
        for _ in 0..<1_000 { #expect(rng.next() == ref.next()) }
    }

    @Test func sameSeedSameSequenceDifferentSeedsDiffer() {
        func draw(_ seed: UInt64, stream: UInt64? = nil) -> [UInt64] {
            var rng = stream.map { RandomSource(seed: seed, stream: $0) } ?? RandomSource(seed: seed)
            return (0..<64).map { _ in rng.next() }
        }
        #expect(draw(7) == draw(7))
        #expect(draw(7, stream: 3) == draw(7, stream: 3))
        let sequences = (0..<100).map { draw(UInt64($0)) } + (0..<100).map { draw(7, stream: UInt64($0)) }
        #expect(Set(sequences).count == 200)
        // Not even one draw shared between neighbouring seeds.
        #expect(Set(draw(1)).isDisjoint(with: draw(2)))
    }

    @Test func mixIsDeterministicOrderSensitiveAndAvalanches() {
        #expect(RandomSource.mix(1, 2) == RandomSource.mix(1, 2))
        #expect(RandomSource.mix(1, 2) != RandomSource.mix(2, 1))
        #expect(RandomSource.mix(0, 0) != 0)
        let values = (0..<64).flatMap { a in (0..<64).map { b in RandomSource.mix(UInt64(a), UInt64(b)) } }
        #expect(Set(values).count == values.count)
        // Flipping any one input bit changes about half the output bits.
        var flips = 0, trials = 0
        for bit in 0..<64 {
            for base in [UInt64(0), 12_345, 0xFFFF_0000_FFFF_0000] {
                flips += (RandomSource.mix(base, 99) ^ RandomSource.mix(base ^ (1 << UInt64(bit)), 99)).nonzeroBitCount
                flips += (RandomSource.mix(99, base) ^ RandomSource.mix(99, base ^ (1 << UInt64(bit)))).nonzeroBitCount
                trials += 2
            }
        }
        let mean = Double(flips) / Double(trials)
        #expect(abs(mean - 32) < 2, "mean bits flipped: \(mean)")
    }

    @Test func distributionsHaveTheirMoments() {
        var rng = RandomSource(seed: 2024)
        let n = 100_000
        let uniform = (0..<n).map { _ in Double(rng.nextUniform()) }
        #expect(uniform.allSatisfy { $0 >= 0 && $0 < 1 })
        #expect(abs(uniform.reduce(0, +) / Double(n) - 0.5) < 0.005)
        let uniformD = (0..<n).map { _ in rng.nextUniformDouble() }
        #expect(uniformD.allSatisfy { $0 >= 0 && $0 < 1 })
        let gauss = (0..<n).map { _ in rng.nextGaussian() }
        let gm = gauss.reduce(0, +) / Double(n)
        let gv = gauss.reduce(0) { $0 + ($1 - gm) * ($1 - gm) } / Double(n - 1)
        #expect(abs(gm) < 0.02 && abs(gv - 1) < 0.02)
        for lambda in [0.5, 4.0, 29.0, 200.0] {
            let p = (0..<20_000).map { _ in rng.nextPoisson(lambda) }
            let pm = p.reduce(0, +) / Double(p.count)
            let pv = p.reduce(0) { $0 + ($1 - pm) * ($1 - pm) } / Double(p.count - 1)
            #expect(p.allSatisfy { $0 >= 0 && $0 == $0.rounded() })
            #expect(abs(pm - lambda) < 0.05 * lambda + 0.02, "Poisson(\(lambda)) mean \(pm)")
            #expect(abs(pv - lambda) < 0.1 * lambda + 0.05, "Poisson(\(lambda)) variance \(pv)")
        }
        #expect(rng.nextPoisson(0) == 0 && rng.nextPoisson(-1) == 0)
    }

    @Test func gaussianTableIsSymmetricAndStandard() {
        let t = GaussianTable.values
        #expect(t.count == 65_536)
        #expect(zip(t, t.reversed()).allSatisfy { abs($0 + $1) < 1e-5 })
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 < $1 })
        let variance = t.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(t.count)
        #expect(abs(variance - 1) < 0.002)
        #expect(abs(GaussianTable.inverseNormalCDF(0.975) - 1.959_964) < 1e-6)
        #expect(abs(GaussianTable.inverseNormalCDF(0.5)) < 1e-12)
        #expect(abs(GaussianTable.inverseNormalCDF(0.001) + 3.090_232) < 1e-6)
    }
}
