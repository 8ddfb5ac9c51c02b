import CaptureCore
@testable import CameraSimulation

/// Small readout used by the tests (binned from the native 4032×3024).
let testSize = Size(width: 160, height: 120)

/// Mean of `raw`'s codes above black, normalised to 0…1, over the CFA sites of colour `colour` within
/// `radius` pixels of `point` (world) — plus the sample variance of those values.
func rawPatch(_ raw: RawImage, camera: SimulatedCamera, at point: SIMD3<Double>, radius: Int, colour: Int = 1) -> [Double] {
    let c = camera.pixelLocation(of: point, size: Size(width: raw.width, height: raw.height))!
    let cx = Int(c.x), cy = Int(c.y)
    let range = Double(raw.whiteLevel) - Double(raw.blackLevel[0])
    var values: [Double] = []
    for y in (cy - radius)...(cy + radius) {
        for x in (cx - radius)...(cx + radius) where raw.cfa.color(x: x, y: y) == colour {
            values.append((Double(raw.bayer[x, y]) - Double(raw.blackLevel[0])) / range)
        }
    }
    return values
}

func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }

func variance(_ v: [Double]) -> Double {
    let m = mean(v)
    return v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count - 1)
}

/// Mean of channel `channel` of `raster` within `radius` pixels of image point `c`.
func rasterMean(_ raster: Raster<Float>, at c: SIMD2<Double>, radius: Int, channel: Int = 0) -> Double {
    var sum = 0.0, n = 0.0
    for y in (Int(c.y) - radius)...(Int(c.y) + radius) {
        for x in (Int(c.x) - radius)...(Int(c.x) + radius) {
            sum += Double(raster[x, y, channel]); n += 1
        }
    }
    return sum / n
}

/// Sum of squared horizontal and vertical differences of the green channel over its sum of squares
/// (sharpness, independent of exposure).
func gradientEnergy(_ raster: Raster<Float>) -> Double {
    var e = 0.0, total = 0.0
    for y in 0..<raster.height { for x in 0..<raster.width { total += Double(raster[x, y, 1]) * Double(raster[x, y, 1]) } }
    for y in 1..<raster.height {
        for x in 1..<raster.width {
            let v = Double(raster[x, y, 1])
            let dx = v - Double(raster[x - 1, y, 1]), dy = v - Double(raster[x, y - 1, 1])
            e += dx * dx + dy * dy
        }
    }
    return e / total
}
