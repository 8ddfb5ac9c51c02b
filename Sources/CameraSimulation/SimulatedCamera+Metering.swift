import CaptureCore
import Foundation

extension SimulatedCamera {
    /// Fraction of full scale auto exposure puts the metered (highlight-limited log-average) luminance at, at zero bias.
    /// Phones expose brighter than the ISO 12232 12.8 %; in the living room (light walls, white ceiling) this puts an
    /// 18 % grey at ≈ 13–20 % of full scale.
    public static let autoExposureTarget = 0.42

    /// Most EV auto exposure holds back for highlights (`ExposureMetering.highlightHeadroom`).
    public static let maximumHighlightHeadroom = 4.0

    /// Where auto exposure keeps the scene's bright end (the frame's 98th percentile, metered on a coarse view that
    /// softens small bright detail) at zero bias, in multiples of full scale: a −2 EV bracket shot then holds it at half
    /// of full scale, and a window's brightest detail below the clip level.
    public static let highlightCeiling = 2.0

    /// Metered EV100 below which `flashRecommended` is set (a dark room ≈ 1 lux is ≈ −1 EV).
    public static let flashRecommendedBelowEV100 = 1.0

    /// Size of the low-resolution view the meter looks at.
    static let meteringSize = Size(width: 64, height: 48)

    /// Auto exposure: meters the scene (a log average weighted around `pointOfInterest`, by default the centre) and picks
    /// duration + ISO for `bias` (EV) the way a phone does: duration up to the handheld limit, then ISO, then longer
    /// duration, clamped to the module's ranges.
    /// In a high-contrast scene that is not short of light it holds the exposure back (`highlightHeadroom`, up to
    /// `maximumHighlightHeadroom`) so the bright end sits at most `highlightCeiling` × full scale: the −2 EV shot of an
    /// auto-exposure bracket then keeps a sunlit window's view, and the ISP brightens the frame back by as much.
    /// Without `keepsHighlightHeadroom` it exposes for the room whatever the highlights (a depth capture: the stereo
    /// match and the portrait's subject need the room's light more than the window's view).
    /// With `flash: true`, meters the flash-lit scene (pre-flash), keeping the flash-lit near subjects out of clipping. `size` sets the effective pixel (binning).
    public func meter(size: Size, bias: Double = 0, flash: Bool = false, keepsHighlightHeadroom: Bool = true,
                      pointOfInterest: SIMD2<Double> = SIMD2(0.5, 0.5)) -> ExposureMetering {
        let view = radianceView(size: SimulatedCamera.meteringSize)
        let useFlash = flash && module.hasFlash
        let luma = SceneRenderer.lumaWeights
        var samples: [(lit: Double, ambient: Double, weight: Double)] = []
        samples.reserveCapacity(view.width * view.height)
        for y in 0..<view.height {
            for x in 0..<view.width {
                let u = (Double(x) + 0.5) / Double(view.width) - pointOfInterest.x
                let v = (Double(y) + 0.5) / Double(view.height) - pointOfInterest.y
                let weight = 0.25 + exp(-(u * u + v * v) / (2 * 0.2 * 0.2))
                let i = y * view.width + x
                let ambient = Double(view.radiance[3 * i]) * luma.x + Double(view.radiance[3 * i + 1]) * luma.y
                    + Double(view.radiance[3 * i + 2]) * luma.z
                let lit = ambient + (useFlash ? module.flashIntensity * Double(view.flashLuminance[i]) : 0)
                samples.append((max(lit, 1e-5), max(ambient, 1e-5), weight))
            }
        }
        var luminance = SimulatedCamera.highlightLimitedLogAverage(samples.map { ($0.lit, $0.weight) })
        if useFlash {
            // Pre-flash: near subjects light up far more than the room, so protect them the way phones do —
            // expose at least for the bright (flash-lit) end of the frame, not only for the dark room.
            luminance = max(luminance, SimulatedCamera.weightedPercentile(samples.map { ($0.lit, $0.weight) }, 0.95) / 2)
        }
        let ambientLuminance = SimulatedCamera.highlightLimitedLogAverage(samples.map { ($0.ambient, $0.weight) })

        let g = ViewGeometry(module: module, size: size)
        let rate = luminance * electronsPerNit * g.pixelPitch * g.pixelPitch   // e⁻/s at base ISO
        let fullWell = module.fullWellElectrons * g.areaFactor
        let durations = module.exposureDurationRange, isos = module.isoRange
        let limit = min(max(module.handheldDurationLimit, durations.lowerBound), durations.upperBound)
        /// Duration and ISO for a duration × ISO product.
        func split(_ product: Double) -> (duration: Double, iso: Double) {
            var duration = product / module.baseISO
            var iso = module.baseISO
            if duration > limit {
                duration = limit
                iso = product / duration
                if iso > isos.upperBound {
                    iso = isos.upperBound
                    duration = min(product / iso, durations.upperBound)
                }
            }
            return (min(max(duration, durations.lowerBound), durations.upperBound), min(max(iso, isos.lowerBound), isos.upperBound))
        }
        // Required duration × ISO product at the bias.
        let product = SimulatedCamera.autoExposureTarget * pow(2, bias) * fullWell * module.baseISO / max(rate, 1e-12)
        // Low light (the handheld limit forces gain) is judged without the headroom, as before it existed.
        let isLowLight = split(product).iso >= isos.upperBound / 3
        let plainIsLowLight = split(product / pow(2, bias)).iso >= isos.upperBound / 3
        // Highlight headroom, judged at zero bias (a bracket's shots share it): not with the flash (its metering already
        // protects the lit subject) nor when light is short (the sensor's noise would cost more than the highlights).
        var headroom = 0.0
        if keepsHighlightHeadroom, !useFlash, !plainIsLowLight {
            let fullScale = luminance / SimulatedCamera.autoExposureTarget
            // The bright end over the whole frame, not centre-weighted: a window at the side counts as much.
            let bright = SimulatedCamera.weightedPercentile(samples.map { ($0.lit, 1) }, 0.98)
            headroom = min(max(log2(bright / fullScale / SimulatedCamera.highlightCeiling), 0),
                           SimulatedCamera.maximumHighlightHeadroom)
        }
        let (duration, iso) = split(product / pow(2, headroom))
        // The scene's own light: what a flash adds is the camera's, not the scene's brightness.
        let ev100 = ExposureMetering.exposureValue100(luminance: ambientLuminance)
        return ExposureMetering(duration: duration, iso: iso, sceneLuminance: luminance,
                                exposureValue100: ExposureMetering.exposureValue100(luminance: luminance),
                                brightnessValue: ExposureMetering.brightnessValue(exposureValue100: ev100),
                                isLowLight: isLowLight,
                                flashRecommended: module.hasFlash && ev100 < SimulatedCamera.flashRecommendedBelowEV100,
                                highlightHeadroom: headroom)
    }

    /// The weighted `fraction` quantile of `samples`.
    static func weightedPercentile(_ samples: [(value: Double, weight: Double)], _ fraction: Double) -> Double {
        let sorted = samples.sorted { $0.value < $1.value }
        let total = sorted.reduce(0) { $0 + $1.weight }
        var running = 0.0
        for s in sorted {
            running += s.weight
            if running >= total * fraction { return s.value }
        }
        return sorted.last?.value ?? 0
    }

    /// Weighted log average with highlights limited to `headroom`× the weighted median, so a bright window
    /// moves the exposure by at most a fraction of its area times log2(headroom) EV.
    static func highlightLimitedLogAverage(_ samples: [(value: Double, weight: Double)], headroom: Double = 8) -> Double {
        let sorted = samples.sorted { $0.value < $1.value }
        let total = sorted.reduce(0) { $0 + $1.weight }
        var running = 0.0, median = sorted.last?.value ?? 1
        for s in sorted {
            running += s.weight
            if running >= total / 2 { median = s.value; break }
        }
        let ceiling = median * headroom
        var logSum = 0.0
        for s in sorted { logSum += s.weight * log(min(s.value, ceiling)) }
        return exp(logSum / total)
    }
}
