// TEMPORARY contract stub, deleted when the real module lands.
import CaptureCore
import Foundation
public enum CameraPosition: String, Sendable { case back, front }
public struct CameraModule: Sendable, Hashable {
    public var name = "Back Camera"; public var position = CameraPosition.back
    public var focalLength = 3.99; public var focalLength35mmEquivalent = 28.0; public var fNumber = 1.8
    public var pixelPitch = 1.22; public var nativeSize = Size(width: 4032, height: 3024); public var cfa = CFAPattern.rggb
    public var bitDepth = 14; public var blackLevel = 528; public var fullWellElectrons = 8000.0; public var readNoiseElectrons = 2.0
    public var darkCurrentElectronsPerSecond = 1.0; public var prnu = 0.005; public var dsnuElectrons = 0.5; public var baseISO = 25.0
    public var isoRange: ClosedRange<Double> = 25...2400; public var exposureDurationRange: ClosedRange<Double> = (1.0/40000)...1.0
    public var hasFlash = true; public var hasOpticalStabilization = true; public var lensPosition = SIMD3<Double>(0,0,0)
    public var cameraToSRGB = Matrix3.identity
    public static let backWide = CameraModule()
    public static let backTelephoto: CameraModule = { var m = CameraModule(); m.name = "Back Telephoto Camera"; m.focalLength = 6.6; m.hasOpticalStabilization = false; return m }()
    public static let frontTrueDepth: CameraModule = { var m = CameraModule(); m.name = "Front"; m.position = .front; m.hasFlash = false; m.nativeSize = Size(width: 3088, height: 2320); return m }()
}
public enum SceneLighting: String, Sendable, CaseIterable { case daylight, indoor, dim, dark }
public struct SimulatedScene: Sendable, Hashable { public var lighting: SceneLighting
    public static func livingRoom(lighting: SceneLighting = .indoor) -> SimulatedScene { SimulatedScene(lighting: lighting) }
    public static let `default` = SimulatedScene(lighting: .indoor) }
public struct SensorExposure: Sendable, Hashable {
    public var size: Size; public var duration: Double; public var iso: Double; public var flash: Bool; public var opticalStabilization: Bool
    public var startTime: Double; public var bias: Double; public var seed: UInt64
    public init(size: Size, duration: Double, iso: Double, flash: Bool = false, opticalStabilization: Bool = false, startTime: Double = 0, bias: Double = 0, seed: UInt64 = 0) {
        self.size = size; self.duration = duration; self.iso = iso; self.flash = flash; self.opticalStabilization = opticalStabilization; self.startTime = startTime; self.bias = bias; self.seed = seed }
}
public struct ExposureMetering: Sendable, Hashable { public var duration: Double; public var iso: Double; public var sceneLuminance: Double; public var exposureValue100: Double; public var isLowLight: Bool; public var flashRecommended: Bool }
public final class SimulatedCamera: @unchecked Sendable {
    public let module: CameraModule; public let scene: SimulatedScene; public let seed: UInt64
    public init(module: CameraModule, scene: SimulatedScene, seed: UInt64 = 0) { self.module = module; self.scene = scene; self.seed = seed }
    public func meter(size: Size, bias: Double = 0, flash: Bool = false) -> ExposureMetering {
        let dark = scene.lighting == .dark || scene.lighting == .dim
        return ExposureMetering(duration: 1.0/60 * pow(2, bias), iso: dark ? 1000 : 100, sceneLuminance: 10, exposureValue100: 5, isLowLight: dark, flashRecommended: scene.lighting == .dark) }
    public func capture(_ e: SensorExposure) -> RawImage {
        var r = RandomSource(seed: e.seed)
        let bayer = Raster<UInt16>(width: e.size.width, height: e.size.height, channels: 1, storage: (0..<e.size.pixelCount).map { _ in UInt16(2000 + r.next() % 100) })
        return RawImage(bayer: bayer, cfa: .rggb, bitDepth: 14, blackLevel: [528,528,528,528], whiteLevel: 16383, asShotNeutral: SIMD3(0.5,1,0.6), cameraToSRGB: .identity, noiseProfile: [(1e-4,1e-6),(1e-4,1e-6),(1e-4,1e-6)], exposure: ExposureRecord(duration: e.duration, iso: e.iso, bias: e.bias, flashFired: e.flash)) }
    public func groundTruth(_ e: SensorExposure) -> Raster<Float> { Raster<Float>(width: e.size.width, height: e.size.height, channels: 3, repeating: 0.2) }
    public func sceneRadiance(size: Size) -> Raster<Float> { Raster<Float>(width: size.width, height: size.height, channels: 3, repeating: 10) }
    public func depthMap(size: Size) -> Raster<Float> { Raster<Float>(width: size.width, height: size.height, channels: 1, repeating: 2) }
}
