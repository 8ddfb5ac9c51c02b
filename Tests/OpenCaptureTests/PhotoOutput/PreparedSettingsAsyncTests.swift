import Foundation
import Testing
@testable import OpenCapture

/// Apple's `async` form of `setPreparedPhotoSettingsArray` (iOS 15): the completion's flag becomes the throw.
@Suite struct PreparedSettingsAsyncTests {
    static func bracket(_ biases: [Float]) -> AVCapturePhotoBracketSettings {
        AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                                      bracketedSettings: biases.map { AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0) })
    }

    /// It returns once the output is prepared (the bracket's render is ready), and an empty array frees it again.
    @Test func returnsOncePrepared() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        let size = rig.device.module.readoutSize(forPhoto: rig.device.activeFormat.dimensions)
        let bracket = Self.bracket([-1, 0, 1])
        try await rig.output.setPreparedPhotoSettingsArray([])
        #expect(!rig.device.camera.isPrepared(size: size) && rig.output.preparedPhotoSettingsArray.isEmpty)
        try await rig.output.setPreparedPhotoSettingsArray([bracket])
        #expect(rig.device.camera.isPrepared(size: size))
        #expect(rig.output.preparedPhotoSettingsArray.map(\.uniqueID) == [bracket.uniqueID])
        try await rig.output.setPreparedPhotoSettingsArray([])
        #expect(!rig.device.camera.isPrepared(size: size))
    }

    /// Settings the output refuses throw their `PhotoSettingsError` (the handler's error) and prepare nothing.
    @Test func refusedSettingsThrowTheirError() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        let tooMany = Self.bracket(Array(repeating: 0, count: rig.output.maxBracketedCapturePhotoCount + 1))
        await #expect(throws: PhotoSettingsError.bracketTooLarge(count: tooMany.bracketedSettings.count,
                                                                 maximum: rig.output.maxBracketedCapturePhotoCount)) {
            try await rig.output.setPreparedPhotoSettingsArray([tooMany])
        }
        #expect(rig.output.preparedPhotoSettingsArray.isEmpty)
    }

    /// A call waiting for `startRunning()` that a later call supersedes throws `AVError.operationInterrupted` (Apple's
    /// handler gets `false` with no error, which its async form throws as a nil-error placeholder).
    @Test func aSupersededCallThrows() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        rig.session.stopRunning()
        let first = Task { try await rig.output.setPreparedPhotoSettingsArray([Self.bracket([0, 1])]) }
        // The first call is waiting for the session when the second arrives (it never finishes while stopped).
        while rig.output.preparedPhotoSettingsArray.isEmpty { try await Task.sleep(nanoseconds: 1_000_000) }
        rig.output.setPreparedPhotoSettingsArray([], completionHandler: nil)
        let error = await #expect(throws: AVError.self) { try await first.value }
        #expect(error?.code == .operationInterrupted)
        #expect(error?.localizedDescription.contains("superseded") == true, "\(String(describing: error?.localizedDescription))")
    }

    /// A `@MainActor` caller (a view model) compiles in Swift 6 mode, passing its own settings.
    @MainActor final class CameraModel {
        let output: AVCapturePhotoOutput
        var isPrepared = false
        init(output: AVCapturePhotoOutput) { self.output = output }
        func prepare() async throws {
            try await output.setPreparedPhotoSettingsArray([AVCapturePhotoSettings()])
            isPrepared = true
        }
    }

    @Test func aMainActorCallerCompilesAndWaits() async throws {
        let rig = CaptureRig(preset: .cif352x288)
        let model = await CameraModel(output: rig.output)
        try await model.prepare()
        #expect(await model.isPrepared)
        #expect(rig.output.preparedPhotoSettingsArray.count == 1)
    }
}
