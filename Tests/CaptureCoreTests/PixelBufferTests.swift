import Foundation
import Testing
@testable import CaptureCore

@Suite struct PixelBufferTests {
    @Test(arguments: [(FourCC.bgra32, 4), (.oneComponent8, 1), (.bayer14RGGB, 2), (.depthFloat16, 2),
                      (.disparityFloat32, 4), (FourCC(rawValue: 24), 3)])
    func onePlaneFormatsHaveAlignedRows(format: FourCC, bytesPerPixel: Int) throws {
        for (w, h) in [(1, 1), (15, 3), (16, 16), (17, 9), (640, 480), (4032, 2)] {
            let buffer = try #require(PixelBuffer(width: w, height: h, pixelFormat: format))
            #expect(!buffer.isPlanar)
            #expect(buffer.planes.count == 1)
            let plane = buffer.planes[0]
            #expect(plane.width == w && plane.height == h)
            #expect(plane.bytesPerPixel == bytesPerPixel)
            #expect(plane.bytesPerRow % 64 == 0)
            #expect(plane.bytesPerRow >= w * bytesPerPixel)
            #expect(plane.bytesPerRow < w * bytesPerPixel + 64)
            #expect(buffer.bytesPerRow == plane.bytesPerRow)
            #expect(buffer.baseAddress(ofPlane: 1) == nil)
        }
    }

    @Test(arguments: [FourCC.yuv420BiPlanarFullRange, .yuv420BiPlanarVideoRange])
    func biPlanar420HasHalfSizeInterleavedChroma(format: FourCC) throws {
        for (w, h) in [(1, 1), (2, 2), (7, 5), (640, 480), (1279, 721)] {
            let buffer = try #require(PixelBuffer(width: w, height: h, pixelFormat: format))
            #expect(buffer.isPlanar)
            #expect(buffer.planes.count == 2)
            let luma = buffer.planes[0], chroma = buffer.planes[1]
            #expect(luma.width == w && luma.height == h && luma.bytesPerPixel == 1)
            #expect(chroma.width == (w + 1) / 2 && chroma.height == (h + 1) / 2 && chroma.bytesPerPixel == 2)
            for plane in buffer.planes {
                #expect(plane.bytesPerRow % 64 == 0)
                #expect(plane.bytesPerRow >= plane.width * plane.bytesPerPixel)
            }
            // CVPixelBufferGetBaseAddressOfPlane: 64-byte aligned planes that do not overlap.
            let y = try #require(buffer.baseAddress(ofPlane: 0)), c = try #require(buffer.baseAddress(ofPlane: 1))
            #expect(Int(bitPattern: y) % 64 == 0 && Int(bitPattern: c) % 64 == 0)
            #expect(c - y >= luma.bytesPerRow * luma.height)
            #expect(buffer.baseAddress(ofPlane: 2) == nil)
            #expect(buffer.baseAddress(ofPlane: -1) == nil)
        }
    }

    @Test func newBuffersAreZeroedAndPlanesWritableToTheirLastByte() throws {
        let buffer = try #require(PixelBuffer(width: 33, height: 7, pixelFormat: .yuv420BiPlanarFullRange))
        for (index, plane) in buffer.planes.enumerated() {
            let base = try #require(buffer.baseAddress(ofPlane: index)).assumingMemoryBound(to: UInt8.self)
            let bytes = plane.bytesPerRow * plane.height
            #expect((0..<bytes).allSatisfy { base[$0] == 0 })
            for i in 0..<bytes { base[i] = UInt8(truncatingIfNeeded: i + index) }
        }
        // Writing the chroma plane did not disturb the luma plane.
        let luma = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        #expect((0..<buffer.planes[0].bytesPerRow * 7).allSatisfy { luma[$0] == UInt8(truncatingIfNeeded: $0) })
    }

    @Test func rejectsUnknownFormatsAndEmptySizes() {
        #expect(PixelBuffer(width: 0, height: 10, pixelFormat: .bgra32) == nil)
        #expect(PixelBuffer(width: 10, height: -1, pixelFormat: .bgra32) == nil)
        #expect(PixelBuffer(width: 4, height: 4, pixelFormat: "zzzz") == nil)
        #expect(!PixelBuffer.supports("zzzz"))
        #expect(PixelBuffer.supports(.bgra32) && PixelBuffer.supports(.bayer14BGGR) && PixelBuffer.supports(.yuv420BiPlanarVideoRange))
    }

    @Test func lockCountsBalance() throws {
        let buffer = try #require(PixelBuffer(width: 2, height: 2, pixelFormat: .bgra32))
        #expect(!buffer.isLocked)
        #expect(!buffer.unlockBaseAddress())
        buffer.lockBaseAddress(); buffer.lockBaseAddress()
        #expect(buffer.isLocked)
        #expect(buffer.unlockBaseAddress())
        #expect(buffer.isLocked)
        #expect(buffer.unlockBaseAddress())
        #expect(!buffer.isLocked)
        #expect(!buffer.unlockBaseAddress())
    }

    @Test func attachmentsSurviveConcurrentWriters() throws {
        let buffer = try #require(PixelBuffer(width: 2, height: 2, pixelFormat: .bgra32))
        DispatchQueue.concurrentPerform(iterations: 2_000) { i in
            buffer.attachments["key\(i % 500)-\(i / 500)"] = String(i)
            _ = buffer.attachments.count
        }
        #expect(buffer.attachments.count == 2_000)
        #expect(buffer.attachments["key7-3"] == "1507")
        buffer.attachments["key7-3"] = nil
        #expect(buffer.attachments.count == 1_999)
    }

    @Test func bgraSwapsChannelsAndFillsAlpha() throws {
        let rgb = Raster<UInt8>(width: 3, height: 2, channels: 3, storage: (0..<18).map { UInt8($0 * 10) })
        let buffer = try #require(PixelBuffer.bgra(from: rgb))
        #expect(buffer.pixelFormat == .bgra32)
        let base = try #require(buffer.baseAddress()).assumingMemoryBound(to: UInt8.self)
        for y in 0..<2 {
            for x in 0..<3 {
                let p = base + y * buffer.bytesPerRow + 4 * x
                #expect([p[0], p[1], p[2], p[3]] == [rgb[x, y, 2], rgb[x, y, 1], rgb[x, y, 0], 255])
            }
        }
        let rgba = Raster<UInt8>(width: 1, height: 1, channels: 4, storage: [1, 2, 3, 4])
        let second = try #require(PixelBuffer.bgra(from: rgba))
        let b2 = try #require(second.baseAddress()).assumingMemoryBound(to: UInt8.self)
        #expect([b2[0], b2[1], b2[2], b2[3]] == [3, 2, 1, 4])
        withExtendedLifetime(second) {}
        #expect(PixelBuffer.bgra(from: Raster<UInt8>(width: 2, height: 2, channels: 1)) == nil)
    }

    @Test func uint16CopiesRowsIntoStridedMemory() throws {
        let raster = Raster<UInt16>(width: 5, height: 3, storage: (0..<15).map { UInt16($0 * 1000) })
        let buffer = try #require(PixelBuffer.uint16(from: raster, pixelFormat: .bayer14GRBG))
        let base = try #require(buffer.baseAddress())
        for y in 0..<3 {
            let row = (base + y * buffer.bytesPerRow).assumingMemoryBound(to: UInt16.self)
            #expect((0..<5).map { row[$0] } == (0..<5).map { raster[$0, y] })
        }
        #expect(PixelBuffer.uint16(from: raster, pixelFormat: .bgra32) == nil)
        #expect(PixelBuffer.uint16(from: raster, pixelFormat: .oneComponent8) == nil)
    }
}

/// `PixelBuffer.yCbCr420` against a straightforward reference of each matrix — BT.601 (JPEG's, SD video) and BT.709
/// (HD video), from their standards' Kr and Kb; video range scales luma to 16–235 and chroma to 16–240; chroma is the
/// mean of each 2×2 block, edges repeated.
@Suite struct YCbCr420Tests {
    /// Kr and Kb as the standards give them.
    static func weights(_ matrix: YCbCrMatrix) -> (kr: Double, kb: Double) {
        matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
    }

    static func reference(_ rgb: Raster<UInt8>, fullRange: Bool, matrix: YCbCrMatrix) -> (y: [[Int]], cb: [[Int]], cr: [[Int]]) {
        let (kr, kb) = weights(matrix)
        func luma(_ x: Int, _ y: Int) -> Double {
            kr * Double(rgb[x, y, 0]) + (1 - kr - kb) * Double(rgb[x, y, 1]) + kb * Double(rgb[x, y, 2])
        }
        func clamp(_ v: Double) -> Int { Int(min(255, max(0, v.rounded()))) }
        let ys = fullRange ? 1.0 : 219.0 / 255, yo = fullRange ? 0.0 : 16, cs = fullRange ? 1.0 : 224.0 / 255
        let y = (0..<rgb.height).map { row in (0..<rgb.width).map { clamp(luma($0, row) * ys + yo) } }
        var cb: [[Int]] = [], cr: [[Int]] = []
        for cy in 0..<(rgb.height + 1) / 2 {
            var cbRow: [Int] = [], crRow: [Int] = []
            for cx in 0..<(rgb.width + 1) / 2 {
                var b = 0.0, r = 0.0
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        let px = min(rgb.width - 1, 2 * cx + dx), py = min(rgb.height - 1, 2 * cy + dy)
                        let l = luma(px, py)
                        b += (Double(rgb[px, py, 2]) - l) / (2 - 2 * kb)
                        r += (Double(rgb[px, py, 0]) - l) / (2 - 2 * kr)
                    }
                }
                cbRow.append(clamp(b / 4 * cs + 128)); crRow.append(clamp(r / 4 * cs + 128))
            }
            cb.append(cbRow); cr.append(crRow)
        }
        return (y, cb, cr)
    }

    static func noise(width: Int, height: Int, channels: Int, seed: UInt64) -> Raster<UInt8> {
        var rng = RandomSource(seed: seed)
        return Raster(width: width, height: height, channels: channels,
                      storage: (0..<width * height * channels).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 56) })
    }

    @Test(arguments: [true, false], [(1, 1), (2, 2), (7, 5), (64, 33), (101, 64)])
    func matchesReferenceWithinOne(fullRange: Bool, size: (Int, Int)) throws {
        for channels in [3, 4] {
            for matrix in [YCbCrMatrix.bt601, .bt709] {
                let rgb = Self.noise(width: size.0, height: size.1, channels: channels, seed: UInt64(size.0 * 1000 + size.1))
                let buffer = try #require(PixelBuffer.yCbCr420(from: rgb, fullRange: fullRange, matrix: matrix))
                #expect(buffer.pixelFormat == (fullRange ? .yuv420BiPlanarFullRange : .yuv420BiPlanarVideoRange))
                let ref = Self.reference(rgb, fullRange: fullRange, matrix: matrix)
                let y = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
                let c = try #require(buffer.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
                let ys = buffer.planes[0].bytesPerRow, cs = buffer.planes[1].bytesPerRow
                var worst = 0
                for row in 0..<size.1 {
                    for x in 0..<size.0 { worst = max(worst, abs(Int(y[row * ys + x]) - ref.y[row][x])) }
                }
                for row in 0..<(size.1 + 1) / 2 {
                    for x in 0..<(size.0 + 1) / 2 {
                        worst = max(worst, abs(Int(c[row * cs + 2 * x]) - ref.cb[row][x]),
                                    abs(Int(c[row * cs + 2 * x + 1]) - ref.cr[row][x]))
                    }
                }
                #expect(worst <= 1, "largest difference from the \(matrix) reference: \(worst)")
            }
        }
    }

    /// White, black and the primaries, as JPEG (BT.601 full range), SD video (BT.601 video range) and HD video (BT.709,
    /// both ranges) define them; the buffer's attachment names the matrix.
    @Test func knownColours() throws {
        let cases: [(YCbCrMatrix, [UInt8], full: [Int], video: [Int])] = [
            (.bt601, [255, 255, 255], [255, 128, 128], [235, 128, 128]),
            (.bt601, [0, 0, 0], [0, 128, 128], [16, 128, 128]),
            (.bt601, [255, 0, 0], [76, 85, 255], [81, 90, 240]),
            (.bt601, [0, 255, 0], [150, 44, 21], [145, 54, 34]),
            (.bt601, [0, 0, 255], [29, 255, 107], [41, 240, 110]),
            (.bt709, [255, 255, 255], [255, 128, 128], [235, 128, 128]),
            (.bt709, [255, 0, 0], [54, 99, 255], [63, 102, 240]),
            (.bt709, [0, 255, 0], [182, 30, 12], [173, 42, 26]),
            (.bt709, [0, 0, 255], [18, 255, 116], [32, 240, 118]),
        ]
        for (matrix, rgb, full, video) in cases {
            let raster = Raster<UInt8>(width: 2, height: 2, channels: 3, storage: Array([[UInt8]](repeating: rgb, count: 4).joined()))
            for (fullRange, expected) in [(true, full), (false, video)] {
                let buffer = try #require(PixelBuffer.yCbCr420(from: raster, fullRange: fullRange, matrix: matrix))
                let y = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
                let c = try #require(buffer.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
                let got = [Int(y[0]), Int(c[0]), Int(c[1])]
                #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 1 }, "\(rgb) \(matrix) full=\(fullRange): \(got) vs \(expected)")
                #expect(buffer.attachments["CVImageBufferYCbCrMatrix"] == (matrix == .bt709 ? "ITU_R_709_2" : "ITU_R_601_4"))
            }
        }
    }

    /// The video matrix follows the frame size: BT.709 from 1280 wide or 720 lines (HD), BT.601 below (SD).
    @Test func videoFramesTakeTheirSizesMatrix() {
        #expect(YCbCrMatrix.video(width: 1920, height: 1080) == .bt709 && YCbCrMatrix.video(width: 1280, height: 720) == .bt709)
        #expect(YCbCrMatrix.video(width: 1440, height: 1080) == .bt709 && YCbCrMatrix.video(width: 960, height: 720) == .bt709)
        #expect(YCbCrMatrix.video(width: 640, height: 480) == .bt601 && YCbCrMatrix.video(width: 192, height: 144) == .bt601)
        #expect(YCbCrMatrix(code: 1) == .bt709 && YCbCrMatrix(code: 6) == .bt601 && YCbCrMatrix(code: 5) == .bt601)
        #expect(YCbCrMatrix(code: 2) == nil && YCbCrMatrix.bt709.code == 1 && YCbCrMatrix.bt601.code == 6)
    }

    @Test func rejectsRastersWithoutThreeChannels() {
        #expect(PixelBuffer.yCbCr420(from: Raster<UInt8>(width: 4, height: 4, channels: 1), fullRange: true, matrix: .bt601) == nil)
    }

    /// Mirroring reverses each plane in its own units: luma bytes, Cb/Cr pairs, BGRA pixels; or the row order.
    @Test func mirroringReversesRowsOrTheirOrder() throws {
        let buffer = try #require(PixelBuffer(width: 4, height: 2, pixelFormat: .yuv420BiPlanarFullRange))
        let y = try #require(buffer.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        let c = try #require(buffer.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
        for x in 0..<4 { y[x] = UInt8(x); y[buffer.planes[0].bytesPerRow + x] = UInt8(10 + x) }
        c[0] = 1; c[1] = 2; c[2] = 3; c[3] = 4
        buffer.attachments["k"] = "v"
        let across = try #require(buffer.mirrored())
        let ay = try #require(across.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        let ac = try #require(across.baseAddress(ofPlane: 1)).assumingMemoryBound(to: UInt8.self)
        #expect((0..<4).map { ay[$0] } == [3, 2, 1, 0])
        #expect((0..<4).map { ay[across.planes[0].bytesPerRow + $0] } == [13, 12, 11, 10])
        #expect((0..<4).map { ac[$0] } == [3, 4, 1, 2], "pairs stay Cb, Cr")
        #expect(across.attachments["k"] == "v")
        let down = try #require(buffer.mirrored(topToBottom: true))
        let dy = try #require(down.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        #expect((0..<4).map { dy[$0] } == [10, 11, 12, 13] && (0..<4).map { dy[down.planes[0].bytesPerRow + $0] } == [0, 1, 2, 3])

        let bgra = try #require(PixelBuffer(width: 2, height: 1, pixelFormat: .bgra32))
        let p = try #require(bgra.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        for i in 0..<8 { p[i] = UInt8(i) }
        let flipped = try #require(bgra.mirrored())
        let q = try #require(flipped.baseAddress(ofPlane: 0)).assumingMemoryBound(to: UInt8.self)
        #expect((0..<8).map { q[$0] } == [4, 5, 6, 7, 0, 1, 2, 3])
        withExtendedLifetime(flipped) {}
        // A mosaic is not mirrored (its CFA pattern would change under the same FourCC).
        #expect(PixelBuffer(width: 4, height: 2, pixelFormat: .bayer14RGGB)?.mirrored() == nil)
    }
}
