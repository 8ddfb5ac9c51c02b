import Foundation
import Testing
@testable import OpenCapture

/// A request is frozen at `capturePhoto`: what the app changes afterwards does not reach it, and
/// the same seed, requests and clock give the same bytes.
@Suite struct RequestSnapshotTests {
    static let date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC

    static func rig(seed: UInt64 = 11) -> CaptureRig {
        let rig = CaptureRig(preset: .vga640x480, lighting: .indoor, seed: seed)
        rig.session.captureClock = .fixed(date, timeZone: TimeZone(secondsFromGMT: 2 * 3600)!)
        return rig
    }

    static func jpegSettings() -> AVCapturePhotoSettings {
        AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
    }

    /// Captures with a delegate and returns its photos once finished.
    static func photos(_ rig: CaptureRig, _ settings: AVCapturePhotoSettings,
                       after: (CaptureRig) -> Void = { _ in }) async -> [AVCapturePhoto] {
        let delegate = RecordingDelegate(output: rig.output)
        rig.output.capturePhoto(with: settings, delegate: delegate)
        after(rig)
        await delegate.waitUntilFinished()
        return delegate.photos
    }

    @Test func changesRightAfterTheCallDoNotReachTheRequest() async throws {
        let reference = await Self.photos(Self.rig(), Self.jpegSettings())
        let changed = await Self.photos(Self.rig(), Self.jpegSettings()) { rig in
            try? rig.device.lockForConfiguration()
            rig.device.setExposureTargetBias(2)
            rig.device.unlockForConfiguration()
            rig.device.simulatedLighting = .dark
            rig.device.simulationSeed = 999
            rig.session.captureClock = .fixed(Date(timeIntervalSince1970: 0))
        }
        let a = try #require(reference.first?.fileDataRepresentation())
        let b = try #require(changed.first?.fileDataRepresentation())
        #expect(a == b)
        let exif = changed.first?.metadata[kCGImagePropertyExifDictionary] as? [String: Any]
        #expect(exif?[kCGImagePropertyExifExposureBiasValue] as? Double == 0)
        #expect(exif?[kCGImagePropertyExifDateTimeOriginal] as? String == "2026:01:01 02:00:00")
        #expect(exif?[kCGImagePropertyExifOffsetTimeOriginal] as? String == "+02:00")
    }

    @Test func theNextRequestSeesTheChange() async throws {
        let rig = Self.rig()
        _ = await Self.photos(rig, Self.jpegSettings()) { rig in
            try? rig.device.lockForConfiguration()
            rig.device.setExposureTargetBias(2)
            rig.device.unlockForConfiguration()
        }
        let next = await Self.photos(rig, Self.jpegSettings())
        let exif = next.first?.metadata[kCGImagePropertyExifDictionary] as? [String: Any]
        #expect(exif?[kCGImagePropertyExifExposureBiasValue] as? Double == 2)
    }

    @Test(arguments: ["jpeg", "heic", "dng"])
    func sameSeedRequestsAndClockGiveIdenticalFiles(kind: String) async throws {
        func settings() -> AVCapturePhotoSettings {
            switch kind {
            case "heic": return AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
            case "dng":
                let rig = Self.rig()
                let raw = rig.output.availableRawPhotoPixelFormatTypes[0]
                return AVCapturePhotoSettings(rawPixelFormatType: raw)
            default: return Self.jpegSettings()
            }
        }
        // Two independent devices, sessions and outputs, as two processes would have.
        let first = await Self.photos(Self.rig(), settings())
        let second = await Self.photos(Self.rig(), settings())
        let a = try #require(first.first?.fileDataRepresentation())
        let b = try #require(second.first?.fileDataRepresentation())
        #expect(a.count > 1000)
        #expect(a == b)
        let other = await Self.photos(Self.rig(seed: 12), settings())
        #expect(other.first?.fileDataRepresentation() != a)
    }
}
