import Foundation
import Testing
@testable import CameraSimulation

@Suite struct RoomSoundTests {
    @Test func samplesDoNotDependOnHowTheyAreAskedFor() {
        let sound = RoomSound(seed: 3)
        let whole = sound.samples(from: 47_000, count: 4_000)
        let parts = sound.samples(from: 47_000, count: 1_234) + sound.samples(from: 48_234, count: 2_766)
        #expect(whole == parts)
        #expect(RoomSound(seed: 4).samples(from: 47_000, count: 4_000) != whole, "another seed, another room")
    }

    @Test func theClockTicksOnTheSecondAboveQuietRoomTone() {
        let sound = RoomSound(seed: 1)
        func rms(_ s: [Int16]) -> Double { (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot() / 32768 }
        let rate = RoomSound.sampleRate
        let tick = sound.samples(from: 2 * rate, count: rate / 100)                 // the 10 ms after t = 2 s
        let quiet = sound.samples(from: 2 * rate + rate / 2, count: rate / 10)       // 100 ms half a second later
        let quietDB = 20 * log10(rms(quiet)), tickDB = 20 * log10(rms(tick))
        #expect(quietDB > -60 && quietDB < -40, "room tone \(quietDB) dBFS")
        #expect(tickDB > quietDB + 20, "tick \(tickDB) dBFS")
    }
}
