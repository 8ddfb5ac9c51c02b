import CaptureEngine
import Foundation
import Testing
@testable import OpenCapture

/// The stream's pacing when the CPU cannot make frames on time (`FrameStream`): a moment's stall is caught up
/// frame by frame, a stream that cannot keep up skips instead of lagging.
@Suite(.serialized) struct FrameStreamPacingTests {
    /// Frame indexes the stream hands its subscribers, with a handler that stalls the stream's thread.
    final class Recorder: @unchecked Sendable {
        private let condition = NSCondition()
        private var indexes: [Int] = []
        private var times: [(frame: Double, made: Double)] = []
        private let stall: (Int) -> Double

        /// `stall(n)`: seconds the n-th frame seen (from 0) holds the stream's thread.
        init(stall: @escaping (Int) -> Double) { self.stall = stall }

        func record(_ frame: StreamFrame, at now: Double) {
            let n = condition.withLock {
                indexes.append(frame.index)
                times.append((frame.time, now))
                condition.broadcast()
                return indexes.count - 1
            }
            let seconds = stall(n)
            if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
        }

        func waitFor(_ count: Int, timeout: Double = 30) -> (indexes: [Int], times: [(frame: Double, made: Double)]) {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock(); defer { condition.unlock() }
            while indexes.count < count { if !condition.wait(until: deadline) { break } }
            return (indexes, times)
        }
    }

    private func run(_ recorder: Recorder, frames: Int) throws -> (indexes: [Int], times: [(frame: Double, made: Double)], skipped: Int) {
        let rig = StreamRig(frameRate: 15)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let stream = try #require(rig.session.frameStream)
        let token = stream.subscribe { [stream] frame in recorder.record(frame, at: stream.now) }
        defer { stream.unsubscribe(token) }
        let seen = recorder.waitFor(frames)
        return (seen.indexes, seen.times, stream.skippedFrames)
    }

    /// A frame holding the thread for three slots (as a still's processing can take both cores): the slots it
    /// missed are made late, each with its own slot's time, and none is skipped. (The stream catches up only after a
    /// second without skips: a run whose stream skipped on its own before the stall — a loaded machine — is repeated.)
    @Test func aMomentsStallIsCaughtUpFrameByFrame() throws {
        let stallAt = 20
        var attempt = 0
        while true {
            attempt += 1
            let recorder = Recorder { $0 == stallAt ? 0.2 : 0 }
            let (indexes, times, _) = try run(recorder, frames: stallAt + 7)
            try #require(indexes.count >= stallAt + 7)
            let calm = Array(indexes[5...stallAt]) == Array(indexes[5]...(indexes[5] + stallAt - 5))
            if !calm && attempt < 3 { continue }
            try #require(calm, "the stream skipped on its own before the stall in three runs: \(indexes)")
            let stalled = indexes[stallAt]
            #expect(Array(indexes[stallAt...]) == Array(stalled...(stalled + 6)), "frames after the stall: \(indexes)")
            // Late, but at their own slots' times: 1/15 s apart.
            for k in (stallAt + 1)...(stallAt + 3) { #expect(abs(times[k].frame - times[k - 1].frame - 1.0 / 15) < 1e-6) }
            #expect(times[stallAt + 1].made - times[stallAt + 1].frame > 1.0 / 15, "the frame after the stall was made late")
            return
        }
    }

    /// Slots a Live Photo needs are made however late: a 0.8 s stall (twice the catch-up limit) inside the required
    /// span leaves no hole in it.
    @Test func requiredSlotsAreMadeHoweverLate() throws {
        let rig = StreamRig(frameRate: 15)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        let stream = try #require(rig.session.frameStream)
        let recorder = Recorder { $0 == 20 ? 0.8 : 0 }
        let token = stream.subscribe { [stream] frame in recorder.record(frame, at: stream.now) }
        defer { stream.unsubscribe(token) }
        _ = recorder.waitFor(10)
        let required = stream.now + 1.6
        stream.makeEveryFrame(through: required)
        let (indexes, times) = recorder.waitFor(40)
        try #require(indexes.count >= 40)
        let span = indexes.indices.filter { $0 >= 10 && times[$0].frame <= required }
        try #require(span.count > 15)
        #expect(zip(span.dropFirst(), span).allSatisfy { indexes[$0] == indexes[$1] + 1 }, "indexes \(span.map { indexes[$0] })")
        #expect(times[21].made - times[21].frame > FrameStream.catchUpLimit, "made later than the catch-up limit")
    }

    /// Every frame holding the thread for 1.5 slots: the stream cannot keep up, so it skips slots and stays within
    /// the catch-up limit of its clock instead of falling further and further behind.
    @Test func aStreamThatCannotKeepUpSkipsInsteadOfLagging() throws {
        let recorder = Recorder { _ in 1.5 / 15 }
        let (indexes, times, skipped) = try run(recorder, frames: 30)
        try #require(indexes.count >= 30)
        #expect(skipped > 0)
        #expect(zip(indexes.dropFirst(), indexes).allSatisfy { $0 > $1 }, "indexes increase")
        let lag = times.suffix(10).map { $0.made - $0.frame }.max() ?? 0
        #expect(lag < FrameStream.catchUpLimit + 2.0 / 15, "lag \(lag) s")
        // After the first catch-up fails, skips come one or two at a time, not in bursts.
        let steps = zip(indexes.suffix(10).dropFirst(), indexes.suffix(10)).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 <= 3 }, "steps \(steps)")
    }
}
