import CaptureCore
import Foundation

extension SimulatedCamera {
    /// Exposes the sensor: 14-bit Bayer codes with black level, Poisson shot noise, dark current, PRNU/DSNU fixed
    /// per session seed, read noise, analog gain = iso/baseISO, ADC rounding and clipping at the white level
    /// (EMVA 1288 order). Hand-shake blur grows with duration; OIS cuts it 5×; with `exposure.focusDistance` set,
    /// surfaces off that distance are blurred by the lens (thin-lens disc, occlusion-aware). Same request and camera
    /// seed ⇒ same frame.
    public func capture(_ exposure: SensorExposure) -> RawImage { capture(exposure, centerRows: nil) }

    /// The same exposure read out only over the `centerRows` middle rows (a video crop of a 4:3 sensor): the
    /// frame `capture(exposure).croppingRows(to: centerRows)` would give, without exposing the rows it drops.
    public func capture(_ exposure: SensorExposure, centerRows: Int?) -> RawImage {
        let g = ViewGeometry(module: module, size: exposure.size)
        let planes = sensorPlanes(for: exposure)
        let duration = max(0, exposure.duration)
        let model = SensorModel(module: module, geometry: g, duration: duration, iso: max(1e-6, exposure.iso))
        let flashOn = exposure.flash && module.hasFlash
        let taps = shakeTaps(exposure, geometry: g)
        let w = g.width, fullHeight = g.height
        let h = min(fullHeight, max(2, centerRows ?? fullHeight))
        let top = ((fullHeight - h) / 2) & ~1
        let colours = module.cfa.colors
        let flashGain = Float(flashOn ? module.flashIntensity : 0)

        let darkMean = Float(model.darkMean), fullWell = Float(model.fullWell)
        let prnu = Float(model.prnu), dsnu = Float(model.dsnu), read = Float(model.readNoise)
        let dnPerElectron = Float(model.conversion * model.gain)
        let black = Float(model.black), whiteCode = Float(model.white)
        let frameSeed = RandomSource.mix(seed, exposure.seed)

        let constants = NoiseConstants(time: Float(duration), darkMean: darkMean, fullWell: fullWell, prnu: prnu, dsnu: dsnu,
                                       read: read, dnPerElectron: dnPerElectron, black: black, white: whiteCode,
                                       flashGain: flashGain)
        // Every element is written by the kernel; skip the zero fill of 24 MB at full resolution.
        let bayer = [UInt16](unsafeUninitializedCapacity: w * h) { out, initialized in
            initialized = w * h
            LargeAllocation.adviseHugePages(out.baseAddress!, bytes: w * h * 2)
            CaptureKernel.run(planes: planes, taps: taps, colours: colours, constants: constants, frameSeed: frameSeed,
                              out: out.baseAddress!, top: top, rows: h, pendulum: pendulum(exposure, geometry: g, planes: planes))
        }
        let profile = model.noiseProfile
        var raw = RawImage(
            bayer: Raster(width: w, height: h, channels: 1, storage: bayer), cfa: module.cfa, bitDepth: module.bitDepth,
            blackLevel: [Float](repeating: Float(module.blackLevel), count: 4), whiteLevel: module.whiteLevel,
            asShotNeutral: module.whiteResponse, cameraToSRGB: module.cameraToSRGB,
            noiseProfile: [profile, profile, profile],
            exposure: ExposureRecord(duration: exposure.duration, iso: exposure.iso, bias: exposure.bias,
                                     flashFired: flashOn, startTime: exposure.startTime))
        raw.lensCorrection = module.lensCorrection(size: exposure.size).cropped(x: 0, y: top, width: w, height: h)
        raw.baselineExposure = exposure.baselineExposure
        return raw
    }

    /// Ground truth for the same request without noise and clipping: linear sRGB at `exposure.size` after optics
    /// (the defocus of `exposure.focusDistance` included), the same hand-shake blur/offset and flash, scaled so 1.0 = the white level for a neutral surface at this exposure.
    public func groundTruth(_ exposure: SensorExposure) -> Raster<Float> {
        let g = ViewGeometry(module: module, size: exposure.size)
        let planes = sensorPlanes(for: exposure)
        let model = SensorModel(module: module, geometry: g, duration: exposure.duration, iso: max(1e-6, exposure.iso))
        let taps = shakeTaps(exposure, geometry: g)
        let w = g.width, h = g.height
        let flashGain = Float(exposure.flash && module.hasFlash ? module.flashIntensity : 0)
        let swing = pendulum(exposure, geometry: g, planes: planes)
        let toSRGB = module.cameraToSRGB
        let white = module.whiteResponse
        let scale = max(0, exposure.duration) * model.gain / model.fullWell
        // Camera RGB (electrons) → white balance → sRGB, with the exposure scale folded in.
        func entry(_ r: Int, _ c: Int) -> Float { Float(toSRGB[r, c] * scale / white[c]) }
        let m0 = SIMD3(entry(0, 0), entry(0, 1), entry(0, 2))
        let m1 = SIMD3(entry(1, 0), entry(1, 1), entry(1, 2))
        let m2 = SIMD3(entry(2, 0), entry(2, 1), entry(2, 2))
        var out = [Float](repeating: 0, count: w * h * 3)
        out.withUnsafeMutableBufferPointer { outBuffer in
            planes.rate.withUnsafeBufferPointer { rateBuffer in
                planes.flashRatio.withUnsafeBufferPointer { ratioBuffer in
                    let op = outBuffer.baseAddress!, rate = rateBuffer.baseAddress!, ratio = ratioBuffer.baseAddress!
                    Parallel.forEachBand(height: h, bandHeight: 32) { rows in
                        for y in rows {
                            for x in 0..<w {
                                var cam = SIMD3<Float>(0, 0, 0)
                                for tap in taps {
                                    let i = min(max(y + tap.dy, 0), h - 1) * w + min(max(x + tap.dx, 0), w - 1)
                                    let f = tap.weight * (1 + flashGain * ratio[i])
                                    cam += SIMD3(rate[3 * i], rate[3 * i + 1], rate[3 * i + 2]) * f
                                }
                                if let swing { cam = swing.blend(cam, x: x, y: y, sceneDepth: planes.depth[y * w + x]) }
                                let o = 3 * (y * w + x)
                                op[o] = (m0 * cam).sum()
                                op[o + 1] = (m1 * cam).sum()
                                op[o + 2] = (m2 * cam).sum()
                            }
                        }
                    }
                }
            }
        }
        return Raster(width: w, height: h, channels: 3, storage: out)
    }

    /// The pendulum during `exposure` on this readout, with the same hand shake as the still scene; nil out of view.
    func pendulum(_ exposure: SensorExposure, geometry g: ViewGeometry, planes: SensorPlanes) -> PendulumOverlay? {
        PendulumOverlay(geometry: g, planes: planes, start: exposure.startTime, duration: max(0, exposure.duration)) { t in
            viewOffset(exposure, geometry: g, at: t)
        }
    }

    /// Where the view has moved at session time `t`, pixels on this readout: the hand shake (reduced by optical
    /// stabilisation) plus the exposure's swings, which a lens-shift stabiliser is far too small to cancel.
    func viewOffset(_ exposure: SensorExposure, geometry g: ViewGeometry, at t: Double) -> SIMD2<Double> {
        var angles = shake.angles(at: t) * residualShake(exposure.opticalStabilization)
        for swing in exposure.swings { angles += swing.angles(at: t) }
        return angles * g.focalPixels
    }

    /// What the phone's gyroscope reads at session time `t`: (yaw, pitch) rates in radians per second of the hand
    /// shake and the `swings`.
    public func angularVelocity(at t: Double, swings: [CameraSwing]) -> SIMD2<Double> {
        swings.reduce(shake.angularVelocity(at: t)) { $0 + $1.angularVelocity(at: t) }
    }

    /// Motion kernel of `exposure`, weights normalised to one.
    func shakeTaps(_ exposure: SensorExposure, geometry g: ViewGeometry) -> [ShakeTap] {
        var taps = HandShake.kernel(start: exposure.startTime, duration: max(0, exposure.duration)) { t in
            viewOffset(exposure, geometry: g, at: t)
        }
        let total = taps.reduce(Float(0)) { $0 + $1.weight }
        if total > 0 { for i in taps.indices { taps[i].weight /= total } }
        return taps
    }

}
