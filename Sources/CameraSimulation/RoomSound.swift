import CaptureCore
import Foundation

/// What the simulated microphone hears in the living room: room tone (air handling, a low-passed
/// noise around −50 dBFS), a faint 100 Hz mains hum, and the wall clock's tick once a second (the
/// pendulum's swing). Deterministic in the session clock: the samples for a moment are the same
/// whoever asks (a movie, a Live Photo, an audio output) and whenever, so sound and picture stay in sync.
public struct RoomSound: Sendable {
    /// Samples per second (48 kHz, as iPhones record).
    public static let sampleRate = 48_000
    public let seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// The clock ticks at every whole second of the session clock.
    public static let tickInterval = 1.0

    /// Mono 16-bit samples `first ..< first + count` (sample `n` is at `n / sampleRate` seconds on the session clock).
    public func samples(from first: Int, count: Int) -> [Int16] {
        guard count > 0 else { return [] }
        let rate = Double(Self.sampleRate)
        // Room tone: white noise through a one-pole low-pass (pole 0.97, ≈ 230 Hz corner), warmed up over 1024
        // samples before `first` so any chunking gives the same values (0.97¹⁰²⁴ ≈ 3·10⁻¹⁴).
        let warm = 1024
        var state = 0.0
        var out = [Int16](repeating: 0, count: count)
        for i in -warm..<count {
            let n = first + i
            state = 0.97 * state + 0.03 * noise(n)
            guard i >= 0 else { continue }
            let t = Double(n) / rate
            var value = state * 0.055                                           // ≈ −50 dBFS RMS
            value += 0.001 * sin(2 * .pi * 100 * t)                             // mains hum, −60 dBFS
            value += tick(at: t)
            out[i] = Int16(clamping: Int((value * 32767).rounded()))
        }
        return out
    }

    /// A uniform deviate in −1…1 for sample `n`, from the seed.
    private func noise(_ n: Int) -> Double {
        var rng = RandomSource(seed: RandomSource.mix(seed, UInt64(bitPattern: Int64(n))), stream: 0x50_0D)
        return rng.nextUniformDouble() * 2 - 1
    }

    /// The clock's tick: two damped partials (2.4 and 4.1 kHz, 6 ms decay) starting at each whole second, peak ≈ −14 dBFS.
    private func tick(at t: Double) -> Double {
        let since = t - (t / Self.tickInterval).rounded(.down) * Self.tickInterval
        guard since >= 0, since < 0.04 else { return 0 }
        let envelope = exp(-since / 0.006) * min(1, since / 0.0005)
        return 0.2 * envelope * (0.7 * sin(2 * .pi * 2400 * since) + 0.3 * sin(2 * .pi * 4100 * since))
    }
}
