import CaptureCore
import Foundation
import Testing
@testable import OpenCapture

/// Tap to expose: auto exposure meters where the point of interest is, and subject-area monitoring.
@Suite struct AVCaptureDeviceExposurePointTests {
    /// The exposure (duration × ISO) auto exposure picks with the point at `point`.
    private func exposure(_ device: AVCaptureDevice, at point: CGPoint) throws -> Double {
        try device.lockForConfiguration()
        device.exposurePointOfInterest = point
        device.unlockForConfiguration()
        return device.exposureDuration.seconds * Double(device.iso)
    }

    @Test func autoExposureMetersAtThePointOfInterest() async throws {
        let rig = CaptureRig()
        let device = rig.device
        #expect(device.isExposurePointOfInterestSupported && !device.isAdjustingExposure)
        #expect(device.exposurePointOfInterest == CGPoint(x: 0.5, y: 0.5))
        // The brightest and darkest cells of a 3 × 3 grid over a centre-metered photo (mean green).
        func cells(_ image: Raster<UInt8>) -> [(point: CGPoint, mean: Double)] {
            (0..<9).map { k in
                let i = k % 3, j = k / 3
                var sum = 0.0, count = 0
                for y in j * image.height / 3 ..< (j + 1) * image.height / 3 {
                    for x in i * image.width / 3 ..< (i + 1) * image.width / 3 { sum += Double(image[x, y, 1]); count += 1 }
                }
                return (CGPoint(x: (Double(i) + 0.5) / 3, y: (Double(j) + 0.5) / 3), sum / Double(count))
            }
        }
        let before = cells(rgbRaster(try #require(try await rig.capture(bgraSettings()).photos.first?.pixelBuffer)))
        let brightest = try #require(before.max { $0.mean < $1.mean }), darkest = try #require(before.min { $0.mean < $1.mean })
        let centre = try exposure(device, at: CGPoint(x: 0.5, y: 0.5))
        let onBright = try exposure(device, at: brightest.point), onDark = try exposure(device, at: darkest.point)
        #expect(onBright < centre * 0.95 || brightest.point == CGPoint(x: 0.5, y: 0.5), "\(before)")
        #expect(onBright < onDark * 0.8, "tapping the bright part exposes less than tapping the dark part: \(onBright) vs \(onDark)")
        // The photo follows: its bright cell is darker when metered there.
        try device.lockForConfiguration()
        device.exposurePointOfInterest = brightest.point
        device.unlockForConfiguration()
        let after = cells(rgbRaster(try #require(try await rig.capture(bgraSettings()).photos.first?.pixelBuffer)))
        let index = try #require(before.firstIndex { $0.point == brightest.point })
        #expect(after[index].mean < before[index].mean * 0.95, "\(before[index].mean) → \(after[index].mean)")

        // Without the lock, or out of range, nothing changes (reported, as Apple raises).
        device.exposurePointOfInterest = CGPoint(x: 0.1, y: 0.1)
        #expect(device.exposurePointOfInterest == brightest.point)
        try device.lockForConfiguration()
        device.exposurePointOfInterest = CGPoint(x: 1.5, y: 0.5)
        device.unlockForConfiguration()
        #expect(device.exposurePointOfInterest == brightest.point)
    }

    @Test func subjectAreaChangesArePostedOnlyWhenMonitored() throws {
        let rig = CaptureRig()
        let device = rig.device
        let posts = NotificationCounter()
        let observer = NotificationCenter.default.addObserver(forName: .AVCaptureDeviceSubjectAreaDidChange, object: device,
                                                              queue: nil) { _ in posts.add() }
        defer { NotificationCenter.default.removeObserver(observer) }
        device.simulatedLighting = .dark
        #expect(posts.value == 0, "not monitored")
        try device.lockForConfiguration()
        device.isSubjectAreaChangeMonitoringEnabled = true
        device.unlockForConfiguration()
        device.simulatedLighting = .indoor
        device.simulatedLighting = .indoor   // no change
        device.simulateCameraSwing(at: CMTime(seconds: 0, preferredTimescale: 600), pitchDegrees: 20)
        #expect(posts.value == 2)
    }
}
