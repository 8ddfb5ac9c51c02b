import CaptureCore
import Foundation
import Testing
@testable import MediaFormats

/// The direct copy of an uncompressed DNG's mosaic (`RawFileReader.UncompressedMosaic`) against LibRaw's own unpack of
/// the same file and the samples written: strips and tiles, either byte order, tiles padded past the edge, an
/// ActiveArea margin.
@Suite struct RawFileReaderUncompressedTests {
    /// A minimal uncompressed 16-bit RGGB DNG of `width` × `height` samples (value = a hash of the position), stored
    /// in tiles of `tile` (nil: strips of `rowsPerStrip` rows), with optional ActiveArea and LinearizationTable.
    static func dng(width: Int, height: Int, littleEndian: Bool, tile: (Int, Int)? = nil, rowsPerStrip: Int = 7,
                    activeArea: [Int]? = nil, linearization: [UInt16]? = nil,
                    edit: (inout TIFFBuilder) -> Void = { _ in }) -> (bytes: [UInt8], samples: [UInt16]) {
        let samples = (0..<width * height).map { UInt16(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) & 0x0FFF | 0x0100 }
        // Blocks (tiles padded with zeros past the edge, or strips), in the file's byte order.
        let (blockWidth, blockHeight) = tile ?? (width, rowsPerStrip)
        let across = (width + blockWidth - 1) / blockWidth, down = (height + blockHeight - 1) / blockHeight
        var blocks: [[UInt8]] = []
        for by in 0..<down {
            for bx in 0..<across {
                var block: [UInt8] = []
                let rows = tile == nil ? min(blockHeight, height - by * blockHeight) : blockHeight
                for r in 0..<rows {
                    for c in 0..<blockWidth {
                        let y = by * blockHeight + r, x = bx * blockWidth + c
                        let v = y < height && x < width ? samples[y * width + x] : 0
                        block += littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
                    }
                }
                blocks.append(block)
            }
        }
        func build(dataStart: Int) -> [UInt8] {
            var t = TIFFBuilder(littleEndian: littleEndian)
            let u16 = { (v: Int) in t.u16(UInt16(v)) }, u32 = { (v: Int) in t.u32(UInt32(v)) }
            t.add(254, type: 4, u32(0))
            t.add(256, type: 4, u32(width))
            t.add(257, type: 4, u32(height))
            t.add(258, type: 3, u16(16))
            t.add(259, type: 3, u16(1))
            t.add(262, type: 3, u16(32803))
            t.add(271, type: 2, Array("Test\0".utf8))
            t.add(272, type: 2, Array("Uncompressed\0".utf8))
            t.add(277, type: 3, u16(1))
            var offsets: [Int] = [], at = dataStart
            for block in blocks { offsets.append(at); at += block.count }
            let offsetBytes = offsets.flatMap(u32), countBytes = blocks.map(\.count).flatMap(u32)
            if let tile {
                t.add(322, type: 4, u32(tile.0))
                t.add(323, type: 4, u32(tile.1))
                t.add(324, type: 4, offsetBytes)
                t.add(325, type: 4, countBytes)
            } else {
                t.add(273, type: 4, offsetBytes)
                t.add(278, type: 4, u32(rowsPerStrip))
                t.add(279, type: 4, countBytes)
            }
            t.add(33421, type: 3, u16(2) + u16(2))
            t.add(33422, type: 1, [0, 1, 1, 2])
            t.add(50706, type: 1, [1, 4, 0, 0])
            t.add(50708, type: 2, Array("Test Uncompressed\0".utf8))
            t.add(50714, type: 4, u32(256))
            t.add(50717, type: 4, u32(4095))
            // Identity-like ColorMatrix1 (XYZ → camera), SRATIONAL.
            let identity = [1, 0, 0, 0, 1, 0, 0, 0, 1].flatMap { u32($0) + u32(1) }
            t.add(50721, type: 10, identity)
            t.add(50728, type: 5, [1, 1, 1].flatMap { u32($0) + u32(1) })
            if let activeArea { t.add(50829, type: 4, activeArea.flatMap(u32)) }
            if let linearization { t.add(50712, type: 3, linearization.flatMap { u16(Int($0)) }) }
            edit(&t)
            return [UInt8](t.data)
        }
        let headerSize = build(dataStart: 0).count
        var bytes = build(dataStart: headerSize)
        for block in blocks { bytes += block }
        return (bytes, samples)
    }

    static func bothWays(_ bytes: [UInt8]) throws -> (direct: RawImage, libRaw: RawImage) {
        (try RawFileReader.read(bytes: bytes, copyingUncompressedMosaic: true).raw,
         try RawFileReader.read(bytes: bytes, copyingUncompressedMosaic: false).raw)
    }

    static func copiesDirectly(_ bytes: [UInt8], width: Int, height: Int) throws -> Bool {
        let reader = try TIFFTagReader(bytes: bytes, anyMagic: true)
        let raw = try #require(reader.dngRawDirectory)
        return try RawFileReader.UncompressedMosaic(reader, directories: reader.allDirectories(), raw: raw, rawWidth: width,
                                                    rawHeight: height, fileSize: bytes.count) != nil
    }

    @Test(arguments: [true, false])
    func stripsMatchLibRaw(littleEndian: Bool) throws {
        let (bytes, samples) = Self.dng(width: 70, height: 52, littleEndian: littleEndian, rowsPerStrip: 5)
        #expect(try Self.copiesDirectly(bytes, width: 70, height: 52))
        let (direct, libRaw) = try Self.bothWays(bytes)
        #expect(direct.bayer.storage == samples)
        #expect(direct.bayer == libRaw.bayer)
        #expect(direct.blackLevel == libRaw.blackLevel && direct.whiteLevel == libRaw.whiteLevel && direct.cfa == libRaw.cfa)
        #expect(direct.blackLevel == [256, 256, 256, 256] && direct.whiteLevel == 4095)
    }

    @Test(arguments: [true, false])
    func tilesWithActiveAreaAreReadAsTIFFLaysThemOut(littleEndian: Bool) throws {
        // 72 × 56 in six 32 × 32 tiles, the right and bottom ones padded to 32 × 32; visible area rows 2..<54, columns
        // 4..<70. (LibRaw 0.20.2, Debian 12's, has no tiles in its uncompressed DNG reader: it reads such a file as
        // strips starting at the TileOffsets array, so the direct copy is compared with the samples written.)
        let (bytes, samples) = Self.dng(width: 72, height: 56, littleEndian: littleEndian, tile: (32, 32),
                                        activeArea: [2, 4, 54, 70])
        #expect(try Self.copiesDirectly(bytes, width: 72, height: 56))
        let direct = try RawFileReader.read(bytes: bytes).raw
        #expect(direct.width == 66 && direct.height == 52)
        #expect(direct.bayer.storage == (2..<54).flatMap { y in (4..<70).map { samples[y * 72 + $0] } })
    }

    @Test func oneTileForTheWholeImageMatchesLibRaw() throws {
        // PiDNG writes its mosaic as one tile the size of the image.
        let (bytes, samples) = Self.dng(width: 64, height: 48, littleEndian: true, tile: (64, 48))
        #expect(try Self.copiesDirectly(bytes, width: 64, height: 48))
        let (direct, libRaw) = try Self.bothWays(bytes)
        #expect(direct.bayer.storage == samples && direct.bayer == libRaw.bayer)
    }

    @Test func ownDNGIsCopiedDirectly() throws {
        let raw = DNGFixtures.raw(width: 96, height: 64)
        let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Strips", exif: DNGFixtures.exif())
        let bytes = [UInt8](try DNGWriter.write(raw, metadata: metadata, preview: nil, stripBytes: 96 * 2 * 6))
        #expect(try Self.copiesDirectly(bytes, width: 96, height: 64))
        let (direct, libRaw) = try Self.bothWays(bytes)
        #expect(direct.bayer == raw.bayer && libRaw.bayer == raw.bayer)
    }

    @Test func linearizedSamplesAreMappedAsLibRawMapsThem() throws {
        // A LinearizationTable shorter than the codes used: codes past its end take its last value.
        let table = (0..<3000).map { UInt16($0 / 2 + 7) }
        let map = { (v: UInt16) in table[min(Int(v), table.count - 1)] }
        let (strips, samples) = Self.dng(width: 40, height: 30, littleEndian: true, linearization: table)
        #expect(try Self.copiesDirectly(strips, width: 40, height: 30))
        let (direct, libRaw) = try Self.bothWays(strips)
        #expect(direct.bayer.storage == samples.map(map) && direct.bayer == libRaw.bayer)
        #expect(direct.whiteLevel == libRaw.whiteLevel)
        // Tiles (which LibRaw 0.20.2 cannot read) with a table, big-endian.
        let (tiles, tiled) = Self.dng(width: 72, height: 56, littleEndian: false, tile: (32, 32), linearization: table)
        #expect(try RawFileReader.read(bytes: tiles).raw.bayer.storage == tiled.map(map))
    }

    @Test func cutOrMismeasuredFilesGoThroughLibRaw() throws {
        // Samples cut short: not copied (LibRaw reports the damage).
        let (whole, _) = Self.dng(width: 40, height: 30, littleEndian: true)
        let cut = Array(whole.dropLast(100))
        #expect(try !Self.copiesDirectly(cut, width: 40, height: 30))
        #expect(throws: MediaFormatError.self) { try RawFileReader.read(bytes: cut) }
        // Tiles cut short are a truncated file (LibRaw cannot read tiles at all).
        let (tiles, _) = Self.dng(width: 72, height: 56, littleEndian: true, tile: (32, 32))
        #expect(throws: MediaFormatError.truncated) { try Self.copiesDirectly(Array(tiles.dropLast(100)), width: 72, height: 56) }
        #expect(throws: MediaFormatError.truncated) { try RawFileReader.read(bytes: Array(tiles.dropLast(100))) }
        // A size other than the one LibRaw reported: not copied.
        #expect(try !Self.copiesDirectly(whole, width: 42, height: 30))
    }

    @Test func layoutsLibRawWouldCallTruncatedAreNamed() throws {
        let t = TIFFBuilder(littleEndian: true)
        func read(_ edit: @escaping (inout TIFFBuilder) -> Void, tile: (Int, Int)? = nil) -> MediaFormatError? {
            let (bytes, _) = Self.dng(width: 64, height: 40, littleEndian: true, tile: tile, edit: edit)
            do { _ = try RawFileReader.read(bytes: bytes); return nil } catch { return error as? MediaFormatError }
        }
        #expect(read({ $0.remove(277); $0.add(277, type: 3, t.u16(2)) })
                == .unsupported("the CFA image has 2 samples per pixel; a Bayer mosaic has 1"))
        #expect(read({ $0.add(339, type: 3, t.u16(2)) }) == .unsupported("signed samples in the CFA image"))
        #expect(read({ $0.add(339, type: 3, t.u16(3)) }) == .unsupported("floating-point samples of fewer than 32 bits in the CFA image"))
        #expect(read({ $0.remove(322); $0.add(322, type: 4, t.u32(0)) }, tile: (32, 20))
                == .invalidMetadata("TileWidth 0 is not a tile size"))
        // A tile table shorter than the tiles (PiDNG's, given tiles smaller than its image) was "the file is truncated".
        #expect(read({ $0.remove(325); $0.add(325, type: 4, t.u32(64 * 40 * 2)) }, tile: (32, 20))
                == .invalidMetadata("the CFA image's 64×40 samples in 32×20 tiles need 4 tiles; TileOffsets lists 4, TileByteCounts 1"))
        #expect(read({ $0.add(50829, type: 4, [0, 0, 50, 64].flatMap { t.u32(UInt32($0)) }) })
                == .invalidMetadata("ActiveArea 0, 0, 50, 64 does not lie inside the 64×40 image"))
        #expect(read({ $0.remove(50714); $0.add(50714, type: 4, t.u32(5000)) })
                == .invalidMetadata("black level 5000 is not below the white level 4095"))
        #expect(read({ $0.remove(259); $0.add(259, type: 3, t.u16(7)) })
                == .invalidMetadata("the CFA image is said to be lossless JPEG (Compression 7), but its data is not JPEG"))
        // Deflate-compressed integer samples (tifffile's `compression='zlib'`): LibRaw called them corrupted data.
        #expect(read({ $0.remove(259); $0.add(259, type: 3, t.u16(8)) })
                == .unsupported("Deflate-compressed integer samples in the CFA image (LibRaw inflates only floating-point DNGs)"))
        var bigTIFF = Self.dng(width: 64, height: 40, littleEndian: true).bytes
        bigTIFF[2] = 43
        #expect(throws: MediaFormatError.unsupported("BigTIFF (64-bit offsets) raw files are not supported")) {
            try RawFileReader.read(bytes: bigTIFF)
        }
    }

    @Test(arguments: [true, false])
    func theDefaultCropIsApplied(tiles: Bool) throws {
        // ActiveArea rows 2..<54, columns 4..<70; DefaultCrop from (3, 1) of it, 40 × 30: an odd corner, so the CFA
        // phase moves from RGGB to BGGR (row 1, column 3 of an RGGB mosaic is blue).
        let t = TIFFBuilder(littleEndian: true)
        let rational = { (v: Int) in t.u32(UInt32(v)) + t.u32(1) }
        let (bytes, samples) = Self.dng(width: 72, height: 56, littleEndian: true, tile: tiles ? (32, 32) : nil,
                                        activeArea: [2, 4, 54, 70]) {
            $0.add(50719, type: 5, rational(3) + rational(1))
            $0.add(50720, type: 5, rational(40) + rational(30))
        }
        let (raw, info) = try RawFileReader.read(bytes: bytes)
        #expect(raw.width == 40 && raw.height == 30 && info.width == 40 && info.height == 30)
        #expect(raw.cfa == .bggr)
        #expect(raw.bayer.storage == (3..<33).flatMap { y in (7..<47).map { samples[y * 72 + $0] } })
        if !tiles { #expect(try RawFileReader.read(bytes: bytes, copyingUncompressedMosaic: false).raw.bayer == raw.bayer) }
    }

    @Test func blackLevelDeltasAreTakenOffTheSamples() throws {
        // BlackLevelDeltaV (a period of 3 rows) and DeltaH (5 columns) over the 64 × 40 image: what each adds to the
        // black level is subtracted from its samples (LibRaw 0.20 leaves row and column stripes).
        let t = TIFFBuilder(littleEndian: true)
        let rows: [Double] = (0..<40).map { [0, 40, 90][$0 % 3] }
        let columns: [Double] = (0..<64).map { [0, 6, 12.5, 18.5, 25][$0 % 5] }
        let srational = { (v: Double) -> [UInt8] in t.u32(UInt32(bitPattern: Int32(v * 2))) + t.u32(2) }
        let (bytes, samples) = Self.dng(width: 64, height: 40, littleEndian: true) {
            $0.add(50715, type: 10, columns.flatMap(srational))
            $0.add(50716, type: 10, rows.flatMap(srational))
        }
        let raw = try RawFileReader.read(bytes: bytes).raw
        var expected: [UInt16] = []
        for y in 0..<40 {
            for x in 0..<64 {
                let value: Double = Double(samples[y * 64 + x]) - rows[y] - columns[x]
                expected.append(UInt16(max(0, value.rounded())))
            }
        }
        #expect(raw.bayer.storage == expected)
    }

    @Test func aBlackLevelPatternFollowsTheCrop() throws {
        // BlackLevelRepeatDim 2 × 2 with four different levels; a DefaultCrop from (3, 1) starts on the pattern's
        // second row and column, so the first position's level is the fourth.
        let t = TIFFBuilder(littleEndian: true)
        let levels = [200, 210, 220, 230]
        let rational = { (v: Int) -> [UInt8] in t.u32(UInt32(v)) + t.u32(1) }
        let pattern = { (b: inout TIFFBuilder) in
            b.add(50713, type: 3, t.u16(2) + t.u16(2))
            b.remove(50714)
            b.add(50714, type: 4, levels.flatMap { t.u32(UInt32($0)) })
        }
        let (whole, _) = Self.dng(width: 64, height: 40, littleEndian: true, edit: pattern)
        #expect(try RawFileReader.read(bytes: whole).raw.blackLevel == levels.map(Float.init))
        let (cropped, _) = Self.dng(width: 64, height: 40, littleEndian: true) {
            pattern(&$0)
            $0.add(50719, type: 5, rational(3) + rational(1))
            $0.add(50720, type: 5, rational(40) + rational(30))
        }
        #expect(try RawFileReader.read(bytes: cropped).raw.blackLevel == [230, 220, 210, 200])
    }

    @Test func absurdTileSizesAreNotCopied() throws {
        // Tile sizes are checked by the copy itself (a file whose DNGVersion LibRaw finds outside IFD0 skips the
        // layout check): 0xFFFFFFFF must not overflow the block arithmetic.
        let t = TIFFBuilder(littleEndian: true)
        let (bytes, _) = Self.dng(width: 64, height: 48, littleEndian: true, tile: (64, 48)) {
            $0.remove(322); $0.add(322, type: 4, t.u32(0xFFFF_FFFF))
            $0.remove(323); $0.add(323, type: 4, t.u32(0xFFFF_FFFF))
        }
        #expect(try !Self.copiesDirectly(bytes, width: 64, height: 48))
    }

    @Test func theDevelopedSizeIsTheCropInsideTheActiveArea() throws {
        let t = TIFFBuilder(littleEndian: true)
        let rational = { (v: Int) -> [UInt8] in t.u32(UInt32(v)) + t.u32(1) }
        let size = { (bytes: [UInt8]) in try TIFFTagReader(bytes: bytes, anyMagic: true).dngRawDirectory?.dngDevelopedSize }
        #expect(try size(Self.dng(width: 72, height: 56, littleEndian: true).bytes) == Size(width: 72, height: 56))
        #expect(try size(Self.dng(width: 72, height: 56, littleEndian: true, activeArea: [2, 4, 54, 70]).bytes)
                == Size(width: 66, height: 52))
        let cropped = Self.dng(width: 72, height: 56, littleEndian: true, activeArea: [2, 4, 54, 70]) {
            $0.add(50719, type: 5, rational(3) + rational(1))
            $0.add(50720, type: 5, rational(40) + rational(30))
        }
        #expect(try size(cropped.bytes) == Size(width: 40, height: 30))
        // A crop larger than the active area is the active area; an ActiveArea that is not inside the image is ignored.
        let large = Self.dng(width: 72, height: 56, littleEndian: true, activeArea: [2, 4, 54, 70]) {
            $0.add(50719, type: 5, rational(0) + rational(0))
            $0.add(50720, type: 5, rational(500) + rational(500))
        }
        #expect(try size(large.bytes) == Size(width: 66, height: 52))
        #expect(try size(Self.dng(width: 72, height: 56, littleEndian: true, activeArea: [10, 10, 0, 0]).bytes)
                == Size(width: 72, height: 56))
    }
}
