import CaptureCore
import Foundation

extension SimulatedCamera {
    /// Photo-electrons per second per cd/m² of a neutral surface on the axis, green channel, native pixel:
    /// E = π·L·T/(4N²) lux at the sensor, × 4090 photons/(µm²·lux·s) × QE.
    var electronsPerNit: Double {
        Double.pi * module.lensTransmission / (4 * module.fNumber * module.fNumber)
            * CameraModule.photonsPerLuxSecondPerSquareMicron * module.quantumEfficiency
    }

    /// Traces every pixel with a centre ray (weight ½) and four shared corner rays (⅛ each): anti-aliasing
    /// plus a lens blur of about one pixel. `emit(x, y, radiance, ambientY, flashY, centreDepth)` per pixel,
    /// concurrently over row bands (disjoint rows).
    func renderFiltered(_ g: ViewGeometry,
                        _ emit: (Int, Int, SIMD3<Double>, Double, Double, Double) -> Void) {
        let w = g.width, r = renderer
        let luma = SceneRenderer.lumaWeights
        Parallel.forEachBand(height: g.height, bandHeight: 24) { rows in
            let cornerRows = rows.count + 1
            var cornerRadiance = [SIMD3<Double>](repeating: .zero, count: (w + 1) * cornerRows)
            var cornerFlash = [Double](repeating: 0, count: (w + 1) * cornerRows)
            for j in 0..<cornerRows {
                let y = Double(rows.lowerBound + j)
                for x in 0...w {
                    let s = r.trace(origin: g.origin, direction: g.direction(x: Double(x), y: y))
                    cornerRadiance[j * (w + 1) + x] = s.radiance
                    cornerFlash[j * (w + 1) + x] = s.flashLuminancePerCandela
                }
            }
            for y in rows {
                let j = y - rows.lowerBound
                for x in 0..<w {
                    let dir = g.direction(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let s = r.trace(origin: g.origin, direction: dir)
                    let a = j * (w + 1) + x, b = a + w + 1
                    let rad = s.radiance * 0.5 + (cornerRadiance[a] + cornerRadiance[a + 1] + cornerRadiance[b] + cornerRadiance[b + 1]) * 0.125
                    let flash = s.flashLuminancePerCandela * 0.5 + (cornerFlash[a] + cornerFlash[a + 1] + cornerFlash[b] + cornerFlash[b + 1]) * 0.125
                    let depth = s.distance / (dir * dir).sum().squareRoot()
                    emit(x, y, rad, (rad * luma).sum(), flash, depth)
                }
            }
        }
    }

    func renderSensorPlanes(_ g: ViewGeometry) -> SensorPlanes {
        let count = g.width * g.height
        // Sensor crosstalk with the white response folded in, as plain rows (no array access per pixel).
        let m = module.sensorMixing, white = module.whiteResponse
        let row0 = SIMD3(m[0, 0], m[0, 1], m[0, 2]) * white.x
        let row1 = SIMD3(m[1, 0], m[1, 1], m[1, 2]) * white.y
        let row2 = SIMD3(m[2, 0], m[2, 1], m[2, 2]) * white.z
        let scale = electronsPerNit * g.pixelPitch * g.pixelPitch
        var rate = [Float](repeating: 0, count: count * 3)
        var ratio = [Float](repeating: 0, count: count)
        var depth = [Float](repeating: 0, count: count)
        rate.withUnsafeMutableBufferPointer { rateBuffer in
            ratio.withUnsafeMutableBufferPointer { ratioBuffer in
              depth.withUnsafeMutableBufferPointer { depthBuffer in
                let rp = rateBuffer.baseAddress!, fp = ratioBuffer.baseAddress!, dp = depthBuffer.baseAddress!
                renderFiltered(g) { x, y, radiance, ambientY, flashY, z in
                    let camera = SIMD3((row0 * radiance).sum(), (row1 * radiance).sum(), (row2 * radiance).sum())
                    let k = scale * g.cos4(x: Double(x) + 0.5, y: Double(y) + 0.5)
                    let i = y * g.width + x
                    rp[3 * i] = Float(max(0, camera.x * k))
                    rp[3 * i + 1] = Float(max(0, camera.y * k))
                    rp[3 * i + 2] = Float(max(0, camera.z * k))
                    fp[i] = ambientY > 0 ? Float(flashY / ambientY) : 0
                    dp[i] = Float(z)
                }
              }
            }
        }
        if g.lensRadial.count == 3, module.hasLensDistortion { Self.applyLateralChromaticAberration(&rate, geometry: g) }
        return SensorPlanes(width: g.width, height: g.height, rate: rate, flashRatio: ratio,
                            fixedPattern: fixedPattern(size: Size(width: g.width, height: g.height)), depth: depth)
    }

    /// The red and blue planes of an interleaved RGB render (traced through the green plane's distortion) moved to
    /// where the lens images those colours: plane c at sensor point p shows the ideal point the lens puts there,
    /// which the green render shows at q = distort_G(undistort_c(p)); read bilinearly.
    static func applyLateralChromaticAberration(_ rate: inout [Float], geometry g: ViewGeometry) {
        let green = g.lensRadial[1]
        let fringes = RadialWarp(center: SIMD2(g.cx, g.cy), normalisingRadius: g.normalisingRadius, planes: 3) { plane, recorded in
            guard plane != 1 else { return 1 }
            let k = g.lensRadial[plane]
            guard recorded > 0 else { return green[0] / max(1e-6, k[0]) }
            let ideal = LensCorrection.correctedRadius(ofRecorded: recorded, k)
            return ideal * LensCorrection.factor(green, ideal) / recorded
        }
        rate = fringes.apply(Raster(width: g.width, height: g.height, channels: 3, storage: rate)).storage
    }

    func renderRadianceView(_ g: ViewGeometry) -> RadianceView {
        let count = g.width * g.height
        var radiance = [Float](repeating: 0, count: count * 3)
        var flash = [Float](repeating: 0, count: count)
        var depth = [Float](repeating: 0, count: count)
        radiance.withUnsafeMutableBufferPointer { rb in
            flash.withUnsafeMutableBufferPointer { fb in
                depth.withUnsafeMutableBufferPointer { db in
                    let rp = rb.baseAddress!, fp = fb.baseAddress!, dp = db.baseAddress!
                    renderFiltered(g) { x, y, rad, _, flashY, z in
                        let i = y * g.width + x
                        rp[3 * i] = Float(rad.x); rp[3 * i + 1] = Float(rad.y); rp[3 * i + 2] = Float(rad.z)
                        fp[i] = Float(flashY)
                        dp[i] = Float(z)
                    }
                }
            }
        }
        return RadianceView(width: g.width, height: g.height, radiance: radiance, flashLuminance: flash, depth: depth)
    }
}
