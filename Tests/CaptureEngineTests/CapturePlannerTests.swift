import CameraSimulation
import CaptureCore
@testable import CaptureEngine
import Foundation
import Testing

/// The planner's decisions on small formats of the simulated wide camera.
struct CapturePlannerTests {
    static func request(lighting: SceneLighting = .indoor, flash: FlashPolicy = .off, quality: QualityPriority = .balanced,
                        exposure: ExposureControl = .automatic, bias: Double = 0, bracket: BracketRequest? = nil,
                        index: UInt64 = 1) -> CaptureRequest {
        let module = CameraModule.backWide
        let camera = SimulatedCamera(module: module, scene: .livingRoom(lighting: lighting), seed: 7)
        let device = DeviceSnapshot(module: module, source: camera, name: "Back Camera", exposure: exposure, bias: bias, seed: 7,
                                    colorSpace: .sRGB)
        return CaptureRequest(id: 1, index: index, device: device, photoSize: Size(width: 320, height: 240),
                              processed: .jpeg(quality: 0.9), raw: nil, preview: nil, thumbnailSize: nil, orientation: 6,
                              quality: quality, flash: flash, redEyeReduction: true,
                              allowsStillImageStabilization: true, bracket: bracket, metadata: MetadataOverrides(),
                              captureDate: Date(timeIntervalSince1970: 1_700_000_000), timeZoneOffsetSeconds: 3600,
                              clockOrigin: 0)
    }

    @Test func manualExposureIsUsedAsSnapshotted() {
        let plan = CapturePlanner.plan(Self.request(exposure: .manual(duration: 1.0 / 250, iso: 400)))
        #expect(plan.exposures.count == 1)
        #expect(plan.exposures[0].duration == 1.0 / 250)
        #expect(plan.exposures[0].iso == 400)
        #expect(!plan.stabilization)
    }

    @Test func autoFlashFiresOnlyInTheDark() {
        #expect(CapturePlanner.plan(Self.request(lighting: .dark, flash: .auto)).flash)
        #expect(!CapturePlanner.plan(Self.request(lighting: .daylight, flash: .auto)).flash)
        #expect(!CapturePlanner.plan(Self.request(lighting: .dark, flash: .off)).flash)
    }

    @Test func stabilizationMergesFramesInLowLightUnlessSpeed() {
        let dim = CapturePlanner.plan(Self.request(lighting: .dark, quality: .quality))
        #expect(dim.stabilization)
        #expect(dim.exposures.count == 6)
        let fast = CapturePlanner.plan(Self.request(lighting: .dark, quality: .speed))
        #expect(!fast.stabilization)
        #expect(fast.exposures.count == 1)
    }

    @Test func bracketShotsFollowTheirBiasAndCurrentValues() {
        let bracket = BracketRequest(shots: [.autoExposure(bias: -2), .autoExposure(bias: nil), .autoExposure(bias: 2)],
                                     lensStabilization: true)
        let plan = CapturePlanner.plan(Self.request(bias: 1, bracket: bracket))
        #expect(plan.shots.map(\.sequenceCount) == [1, 2, 3])
        #expect(plan.exposures.map(\.bias) == [-2, 1, 2])
        let light = plan.exposures.map { $0.duration * $0.iso }
        #expect(abs(light[2] / light[0] - 16) < 0.5)
        #expect(plan.shots.allSatisfy { $0.lensStabilization == .active })
    }

    @Test func resolutionCountsPhotosAndSizes() {
        var request = Self.request()
        request.raw = RawDelivery(pixelFormat: "rgg4", thumbnail: Size(width: 160, height: 120))
        let resolved = CapturePlanner.resolve(request, plan: CapturePlanner.plan(request))
        #expect(resolved.expectedPhotoCount == 2)
        #expect(resolved.photoSize == Size(width: 320, height: 240))
        #expect(resolved.rawThumbnailSize == Size(width: 160, height: 120))
        #expect(resolved.processingTime.lowerBound < resolved.processingTime.upperBound)
    }

    @Test func samePlanForTheSameRequest() {
        let a = CapturePlanner.plan(Self.request(index: 3)).exposures
        let b = CapturePlanner.plan(Self.request(index: 3)).exposures
        #expect(a == b)
        #expect(a != CapturePlanner.plan(Self.request(index: 4)).exposures)
    }
}
