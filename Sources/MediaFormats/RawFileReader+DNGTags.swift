import CTIFF
import CaptureCore
import Foundation

extension RawFileReader {
    /// DNG NoiseProfile (IFD0, tag 51041) as one (scale, offset) per colour, read with libtiff;
    /// empty when absent or malformed.
    static func dngNoiseProfile(_ bytes: UnsafeRawBufferPointer) -> [(scale: Double, offset: Double)] {
        _ = dngTagsRegistered
        let file = TIFFStream(borrowing: bytes)
        guard let tif = file.openForReading() else { return [] }
        defer { TIFFClose(tif) }
        var count: UInt16 = 0
        var values: UnsafeRawPointer?
        guard opencapture_tiff_get_counted(tif, ttag_t(DNGWriter.tagNoiseProfile), &count, &values) == 1,
              let values, count == 2 || count == 6 else { return [] }
        let v = Array(UnsafeBufferPointer(start: values.assumingMemoryBound(to: Double.self), count: Int(count)))
        guard v.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return [] }
        let pairs = stride(from: 0, to: v.count, by: 2).map { (scale: v[$0], offset: v[$0 + 1]) }
        return pairs.count == 1 ? Array(repeating: pairs[0], count: 3) : pairs
    }
}

extension RawFileReader {
    /// The DefaultCropOrigin and DefaultCropSize of a DNG's raw directory (raw pixels, from the active area's corner)
    /// as a rectangle of the `visible` image, both rounded as the DNG SDK rounds them and a crop that overhangs moved
    /// back inside; nil when the tags are absent or malformed or the crop is the whole image.
    static func dngDefaultCrop(_ raw: TIFFTagReader.Directory, visible: Size) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let origin = raw.reals(50719), let size = raw.reals(50720), origin.count == 2, size.count == 2,
              (origin + size).allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1e6 }) else { return nil }
        let width = min(Int(size[0].rounded()), visible.width), height = min(Int(size[1].rounded()), visible.height)
        let x = min(Int(origin[0].rounded()), visible.width - width), y = min(Int(origin[1].rounded()), visible.height - height)
        guard width >= 2, height >= 2, (x, y, width, height) != (0, 0, visible.width, visible.height) else { return nil }
        return (x, y, width, height)
    }

    /// A DNG's BlackLevelDeltaH (per column) and BlackLevelDeltaV (per row) of the `visible` image (LibRaw 0.20 reads
    /// neither): what each column and row adds to BlackLevel. nil when both are absent or neither has one value per
    /// column or row.
    static func dngBlackLevelDeltas(_ raw: TIFFTagReader.Directory, visible: Size) -> (columns: [Double], rows: [Double])? {
        let columns = raw.reals(50715).flatMap { $0.count == visible.width && $0.allSatisfy(\.isFinite) ? $0 : nil }
        let rows = raw.reals(50716).flatMap { $0.count == visible.height && $0.allSatisfy(\.isFinite) ? $0 : nil }
        guard columns != nil || rows != nil else { return nil }
        return (columns ?? Array(repeating: 0, count: visible.width), rows ?? Array(repeating: 0, count: visible.height))
    }

    /// The lens opcodes (OpcodeList2 FixVignetteRadial, OpcodeList3 WarpRectilinear) of a DNG's raw directory, for
    /// the visible `size`; nil when there are none or they cannot be read (the opcodes are optional, so the mosaic is
    /// still developed).
    static func dngLensCorrection(_ rawDirectory: TIFFTagReader.Directory, size: Size) -> LensCorrection? {
        let list2 = rawDirectory.bytes(UInt16(DNGWriter.tagOpcodeList2)), list3 = rawDirectory.bytes(UInt16(DNGWriter.tagOpcodeList3))
        guard list2 != nil || list3 != nil else { return nil }
        return try? DNGOpcodeList.lensCorrection(list2: list2, list3: list3, size: size)
    }
}

extension RawFileReader {
    /// Whether `bytes` start as a BigTIFF ("II" 43 0 or "MM" 0 43), which LibRaw 0.20 does not read.
    static func isBigTIFF(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && (bytes[0...3] == [0x49, 0x49, 43, 0] || bytes[0...3] == [0x4D, 0x4D, 0, 43])
    }

    /// Why a DNG's raw directory (`raw`) cannot be read as it claims, found from its tags before LibRaw reads them
    /// (LibRaw reports most of these as a file cut short, or decodes them to garbage): a CFA image of other than one
    /// sample per pixel, signed or floating-point samples of fewer than 32 bits, a tile of no width or length, an
    /// ActiveArea outside the image, "lossless JPEG" data that is not JPEG; a linear (LinearRaw) image of other than three
    /// samples per pixel. Throws `.unsupported` or
    /// `.invalidMetadata`.
    static func checkDNGLayout(_ raw: TIFFTagReader.Directory, bytes: [UInt8]) throws {
        let photometric = raw.integer(262)
        guard photometric == 32803 || photometric == 34892 else { return }
        if photometric == 32803, let samples = raw.integer(277), samples != 1 {
            throw MediaFormatError.unsupported("the CFA image has \(samples) samples per pixel; a Bayer mosaic has 1")
        }
        // A linear DNG (LinearRaw) is read as camera RGB: one or four samples a pixel (monochrome, or a fourth colour)
        // are not.
        if photometric == 34892, (raw.integer(277) ?? 1) != 3 {
            throw MediaFormatError.unsupported("the linear DNG has \(raw.integer(277) ?? 1) samples per pixel; RGB ones (3) are read")
        }
        switch (raw.integer(339) ?? 1, raw.integer(258) ?? 0) {
        case (2, _): throw MediaFormatError.unsupported("signed samples in the CFA image")
        case (3, ..<32): throw MediaFormatError.unsupported("floating-point samples of fewer than 32 bits in the CFA image")
        default: break
        }
        for (tag, name) in [(UInt16(322), "TileWidth"), (323, "TileLength")] {
            if let value = raw.integer(tag), !(1...65_535).contains(value) {
                throw MediaFormatError.invalidMetadata("\(name) \(value) is not a tile size")
            }
        }
        // A tile table must list every tile: with fewer (PiDNG's, given a TileWidth smaller than the image, lists its one
        // run of samples), the file is not cut short, its table is wrong.
        if let offsets = raw.integers(324), let width = raw.integer(256), let height = raw.integer(257), width > 0, height > 0,
           let tileWidth = raw.integer(322), let tileLength = raw.integer(323) {
            let needed = ((width + tileWidth - 1) / tileWidth) * ((height + tileLength - 1) / tileLength)
            let counts = raw.integers(325)?.count ?? 0
            if offsets.count != needed || counts != needed {
                throw MediaFormatError.invalidMetadata("the CFA image's \(width)×\(height) samples in \(tileWidth)×\(tileLength) tiles "
                                                       + "need \(needed) tiles; TileOffsets lists \(offsets.count), TileByteCounts \(counts)")
            }
        }
        // Deflate (8, Adobe's 8 too) holds integer samples LibRaw does not unpack (it inflates floating-point DNGs only):
        // it reported "Corrupted data or unexpected EOF" for a whole, valid file.
        if [8, 32946].contains(raw.integer(259) ?? 1), (raw.integer(339) ?? 1) != 3 {
            throw MediaFormatError.unsupported("Deflate-compressed integer samples in the CFA image (LibRaw inflates only floating-point DNGs)")
        }
        // Lossless JPEG tiles or strips start with a JPEG's SOI; LibRaw decodes anything else to a black picture.
        if raw.integer(259) == 7, let first = (raw.integers(324) ?? raw.integers(273))?.first, first >= 0,
           first < bytes.count - 1, bytes[first] != 0xFF || bytes[first + 1] != 0xD8 {
            throw MediaFormatError.invalidMetadata("the CFA image is said to be lossless JPEG (Compression 7), but its data is not JPEG")
        }
        if let area = raw.integers(50829), area.count == 4, let width = raw.integer(256), let height = raw.integer(257),
           raw.activeArea == nil {
            throw MediaFormatError.invalidMetadata("ActiveArea \(area.map(String.init).joined(separator: ", ")) does not lie "
                                                   + "inside the \(width)×\(height) image")
        }
    }

    /// Whether `raw` stores uncompressed samples in more than one tile, which LibRaw 0.20 reads as strips starting at
    /// the TileOffsets array.
    static func hasUncompressedTiles(_ raw: TIFFTagReader.Directory) -> Bool {
        (raw.integer(259) ?? 1) == 1 && (raw.integers(324)?.count ?? 0) > 1
    }
}
