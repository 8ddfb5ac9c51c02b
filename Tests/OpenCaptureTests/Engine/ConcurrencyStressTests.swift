import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// Paths the rest of the suite does not exercise: many threads on one output at once. Run under
/// ThreadSanitizer by scripts/tsan.sh.
@Suite struct ConcurrencyStressTests {
    /// Runs `body(thread)` on `threads` threads at once and waits for all of them.
    static func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: threads, execute: body)
    }

    static let order: [RecordingDelegate.Event] = [.willBegin, .willCapture, .didCapture, .didFinishProcessing, .didFinishCapture]

    @Test func firstCapturesFromSeveralThreadsAtOnce() async throws {
        let rig = CaptureRig(preset: .low)
        let delegates = (0..<8).map { _ in RecordingDelegate(output: rig.output) }
        Self.onThreads(8) { i in rig.output.capturePhoto(with: bgraSettings(), delegate: delegates[i]) }
        for delegate in delegates {
            await delegate.waitUntilFinished()
            #expect(delegate.events == Self.order)
            #expect(delegate.errors.isEmpty)
            #expect(delegate.onDelegateQueue)
        }
    }

    @Test func requestsReachTheSensorInCallOrder() async throws {
        let rig = CaptureRig(preset: .low)
        let log = Locked<[Int64]>([])
        let callOrder = Locked<[Int64]>([])
        let delegates = Locked<[RecordingDelegate]>([])
        let gate = NSLock()
        Self.onThreads(6) { _ in
            for _ in 0..<4 {
                let settings = bgraSettings()
                let delegate = RecordingDelegate(output: rig.output)
                delegate.onBegin = { id in log.withLock { $0.append(id) } }
                delegates.withLock { $0.append(delegate) }
                // The gate makes the global call order known to the test.
                gate.lock()
                callOrder.withLock { $0.append(settings.uniqueID) }
                rig.output.capturePhoto(with: settings, delegate: delegate)
                gate.unlock()
            }
        }
        for delegate in delegates.wrappedValue { await delegate.waitUntilFinished() }
        #expect(log.wrappedValue == callOrder.wrappedValue)
        #expect(Set(log.wrappedValue).count == 24)
    }

    @Test func capturingWhileOthersChangeExposureLightingAndConfiguration() async throws {
        let rig = CaptureRig(preset: .low)
        let delegates = Locked<[RecordingDelegate]>([])
        Self.onThreads(6) { thread in
            for step in 0..<6 {
                switch thread % 3 {
                case 0:
                    let delegate = RecordingDelegate(output: rig.output)
                    delegates.withLock { $0.append(delegate) }
                    rig.output.capturePhoto(with: bgraSettings(), delegate: delegate)
                case 1:
                    try? rig.device.lockForConfiguration()
                    rig.device.setExposureTargetBias(Float(step % 3) - 1)
                    rig.device.exposureMode = step % 2 == 0 ? .custom : .continuousAutoExposure
                    rig.device.unlockForConfiguration()
                    rig.device.simulatedLighting = SimulatedLighting.allCases[step % 4]
                default:
                    rig.session.beginConfiguration()
                    rig.session.sessionPreset = step % 2 == 0 ? .low : .cif352x288
                    rig.session.commitConfiguration()
                    _ = rig.output.isFlashScene
                    _ = rig.output.maxPhotoDimensions
                }
            }
        }
        for delegate in delegates.wrappedValue {
            await delegate.waitUntilFinished()
            #expect(delegate.events == Self.order)
            #expect(delegate.photos.count == 1)
        }
        #expect(delegates.wrappedValue.count == 12)
    }

    @Test func capturesInFlightWhileTheSessionStopsAndRestarts() async throws {
        let rig = CaptureRig(preset: .low)
        var delegates: [RecordingDelegate] = []
        for round in 0..<3 {
            for _ in 0..<3 {
                let delegate = RecordingDelegate(output: rig.output)
                delegates.append(delegate)
                rig.output.capturePhoto(with: bgraSettings(), delegate: delegate)
            }
            rig.session.stopRunning()
            // Stopped: refused with only didFinishCapture.
            let refused = RecordingDelegate(output: rig.output)
            rig.output.capturePhoto(with: bgraSettings(), delegate: refused)
            await refused.waitUntilFinished()
            #expect(refused.events == [.didFinishCapture])
            #expect(refused.errors.first as? PhotoSettingsError == .noActiveVideoConnection)
            if round < 2 { rig.session.startRunning() }
        }
        for delegate in delegates {
            await delegate.waitUntilFinished()
            #expect(delegate.events == Self.order)
        }
    }

    @Test func delegatesReleasedMidCaptureGetNothingAndBreakNothing() async throws {
        let rig = CaptureRig(preset: .low)
        weak var released: RecordingDelegate?
        Self.onThreads(4) { _ in
            for _ in 0..<3 {
                let delegate = RecordingDelegate(output: rig.output)
                rig.output.capturePhoto(with: bgraSettings(), delegate: delegate)
            }
        }
        do {
            let delegate = RecordingDelegate(output: rig.output)
            released = delegate
            rig.output.capturePhoto(with: bgraSettings(), delegate: delegate)
        }
        #expect(released == nil)
        // The output still works afterwards, in order.
        let kept = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: bgraSettings(), delegate: kept)
        await kept.waitUntilFinished()
        #expect(kept.events == Self.order)
    }
}
