import CaptureCore
import Foundation
import Testing
@testable import Fusion

@Suite struct TileAlignmentTests {
    /// A textured scene seen by a reference frame and by a frame turned by `degrees` about the image centre
    /// and moved by `shift` (a hand-held shot), rendered `gain` times as bright: frame(F(p)) = reference(p)
    /// with F(p) = c + R(p − c) + shift. Returns the frames and the true displacement F(p) − p.
    static func pair(width: Int = 640, height: Int = 480, degrees: Double, shift: (Double, Double), gain: Double)
        -> (reference: Raster<UInt8>, moved: Raster<UInt8>, truth: (Double, Double) -> (Double, Double)) {
        let margin = 48, bw = width + 2 * margin, bh = height + 2 * margin
        let texture = TestScenes.texture(width: bw, height: bh, seed: 21, squares: 220)
        func scene(_ x: Double, _ y: Double) -> Double {
            // Bilinear in the texture, so any position has one exact value.
            let fx = min(max(x + Double(margin), 0), Double(bw - 2)), fy = min(max(y + Double(margin), 0), Double(bh - 2))
            let ix = Int(fx), iy = Int(fy), tx = fx - Double(ix), ty = fy - Double(iy)
            let a = texture[iy * bw + ix], b = texture[iy * bw + ix + 1], c = texture[(iy + 1) * bw + ix], d = texture[(iy + 1) * bw + ix + 1]
            return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
        }
        let angle = degrees * .pi / 180, cosA = cos(angle), sinA = sin(angle)
        let cx = Double(width) / 2, cy = Double(height) / 2
        func render(_ gain: Double, _ position: (Double, Double) -> (Double, Double)) -> Raster<UInt8> {
            var image = Raster<UInt8>(width: width, height: height, channels: 3)
            let tint: [Double] = [1.0, 0.85, 0.7]
            for y in 0..<height {
                for x in 0..<width {
                    let (sx, sy) = position(Double(x), Double(y))
                    let v = 0.3 * (0.3 + 1.4 * scene(sx, sy)) * gain
                    for c in 0..<3 { image[x, y, c] = TestScenes.encode8(v * tint[c]) }
                }
            }
            return image
        }
        let reference = render(1) { ($0, $1) }
        // frame(q) = scene(F⁻¹(q)), F⁻¹(q) = c + R⁻¹(q − shift − c).
        let moved = render(gain) { x, y in
            let u = x - shift.0 - cx, v = y - shift.1 - cy
            return (cx + cosA * u + sinA * v, cy - sinA * u + cosA * v)
        }
        let truth: (Double, Double) -> (Double, Double) = { x, y in
            let u = x - cx, v = y - cy
            return (cx + cosA * u - sinA * v + shift.0 - x, cy + sinA * u + cosA * v + shift.1 - y)
        }
        return (reference, moved, truth)
    }

    /// Largest and mean error of the estimated field against the truth at the centres of the tiles that
    /// are not on the image border.
    static func residual(_ field: DisplacementField, truth: (Double, Double) -> (Double, Double)) -> (max: Double, mean: Double) {
        var worst = 0.0, total = 0.0, n = 0.0
        let grid = field.dx
        for row in 1..<(grid.rows - 1) {
            for column in 1..<(grid.columns - 1) {
                let x = (Double(column) + 0.5) * Double(grid.tileSize) - 0.5, y = (Double(row) + 0.5) * Double(grid.tileSize) - 0.5
                let found = field.at(x: x, y: y), want = truth(x, y)
                let e = ((found.dx - want.0) * (found.dx - want.0) + (found.dy - want.1) * (found.dy - want.1)).squareRoot()
                worst = max(worst, e); total += e; n += 1
            }
        }
        return (worst, total / n)
    }

    @Test(arguments: [1.0, 0.3, 3.0])
    func followsShiftAndSmallRotationAcrossExposures(gain: Double) throws {
        let (reference, moved, truth) = Self.pair(degrees: 0.3, shift: (3.4, -2.3), gain: gain)
        let images = [reference, moved]
        let global = try ExposureAlignment().estimateShifts(images, reference: 0)
        let fields = try TileAlignment().estimate(images, reference: 0, initialShifts: global)
        let field = try #require(fields[1])
        let error = Self.residual(field, truth: truth)
        // A 0.3° turn moves the corners of this frame by ±1.7 px beyond the shift; a global shift leaves that.
        #expect(error.max < 0.35, "max \(error.max)")
        #expect(error.mean < 0.15, "mean \(error.mean)")
        #expect(fields[0] == nil)
    }

    @Test func alignedFrameMatchesTheReference() throws {
        let (reference, moved, _) = Self.pair(degrees: 0.3, shift: (3.4, -2.3), gain: 1)
        func meanError(_ image: Raster<UInt8>) -> Double {
            var total = 0.0, n = 0.0
            for y in 32..<(reference.height - 32) { for x in 32..<(reference.width - 32) {
                total += abs(Double(image[x, y, 1]) - Double(reference[x, y, 1])); n += 1
            } }
            return total / n
        }
        let global = try ExposureAlignment().estimateShifts([reference, moved], reference: 0)
        let shiftedOnly = try ExposureAlignment().align([reference, moved], reference: 0)[1]
        var images = [reference, moved]
        try TileAlignment().align(&images, reference: 0, initialShifts: global)
        #expect(images[0].storage == reference.storage)
        #expect(meanError(images[1]) < 0.5 * meanError(shiftedOnly), "\(meanError(images[1])) vs \(meanError(shiftedOnly))")
        #expect(meanError(images[1]) < 3)
    }

    @Test func aStillFrameIsLeftUnresampled() throws {
        let (reference, _, _) = Self.pair(degrees: 0, shift: (0, 0), gain: 1)
        let moved = ExposureAlignment.translate(reference, dx: -2, dy: 1)
        var images = [reference, moved]
        // Started from a coarse global shift (as `fuse` starts it), the tiles find the whole-pixel one and report it.
        let shifts = try TileAlignment().align(&images, reference: 0, initialShifts: [(0, 0), (0, 0)])
        #expect(shifts.map { [$0.dx, $0.dy] } == [[0, 0], [2, -1]])   // moved(x + 2, y − 1) = reference(x, y)
        // A whole-pixel shift is undone exactly (no resampling blur) away from the replicated edge.
        for y in 4..<(reference.height - 4) {
            for x in 4..<(reference.width - 4) where images[1][x, y, 1] != reference[x, y, 1] {
                Issue.record("pixel (\(x), \(y)) differs"); return
            }
        }
    }

    @Test func rejectsBadParameters() {
        let (reference, moved, _) = Self.pair(width: 160, height: 128, degrees: 0, shift: (0, 0), gain: 1)
        var images = [reference, moved]
        #expect(throws: FusionError.self) { try TileAlignment(tileSize: 4).align(&images, reference: 0) }
        #expect(throws: FusionError.referenceOutOfRange(5)) { try TileAlignment().align(&images, reference: 5) }
    }
}
