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
    /// A DNG's raw image directory: the first full-resolution CFA directory among IFD0 and its SubIFDs, else IFD0.
    static func dngRawDirectory(_ reader: TIFFTagReader) -> TIFFTagReader.Directory? {
        guard let ifd0 = try? reader.mainDirectories(limit: 1).first else { return nil }
        let candidates = [ifd0] + reader.subDirectories(of: ifd0)
        return candidates.first { ($0.integer(254) ?? 0) == 0 && $0.integer(262) == 32803 } ?? ifd0
    }

    /// The DNG's DefaultCropOrigin and DefaultCropSize (raw pixels, from the active area's corner) as a rectangle of
    /// the `visible` image, clipped to it; nil when the tags are absent or malformed or the crop is the whole image.
    static func dngDefaultCrop(_ reader: TIFFTagReader, visible: Size) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let raw = dngRawDirectory(reader), let origin = raw.reals(50719), let size = raw.reals(50720),
              origin.count == 2, size.count == 2, (origin + size).allSatisfy({ $0.isFinite && $0 >= 0 && $0 < 1e6 }) else { return nil }
        let x = min(Int(origin[0]), visible.width), y = min(Int(origin[1]), visible.height)
        let width = min(Int(size[0].rounded()), visible.width - x), height = min(Int(size[1].rounded()), visible.height - y)
        guard width >= 2, height >= 2, (x, y, width, height) != (0, 0, visible.width, visible.height) else { return nil }
        return (x, y, width, height)
    }

    /// The lens opcodes (OpcodeList2 FixVignetteRadial, OpcodeList3 WarpRectilinear) of a DNG, read by `reader` (the
    /// one that validated its directories) from its raw image directory (`dngRawDirectory`), for the visible `size`; nil when there are none or they cannot be read (the
    /// opcodes are optional, so the mosaic is still developed).
    static func dngLensCorrection(_ reader: TIFFTagReader, size: Size) -> LensCorrection? {
        guard let rawDirectory = dngRawDirectory(reader) else { return nil }
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

    /// Why a DNG's raw directory cannot be read as it claims, found from its tags before LibRaw reads them (LibRaw
    /// reports most of these as a file cut short): a CFA image of other than one sample per pixel, signed or
    /// half-float samples, a tile of no width or length, an ActiveArea outside the image. Throws `.unsupported` or
    /// `.invalidMetadata`; files without DNGVersion pass (other raws are LibRaw's to judge).
    static func checkDNGLayout(_ reader: TIFFTagReader) throws {
        guard let main = try? reader.mainDirectories(), main.first?.contains(50706) == true else { return }
        for raw in (main + main.flatMap { reader.subDirectories(of: $0) }) where raw.integer(262) == 32803 {
            if let samples = raw.integer(277), samples != 1 {
                throw MediaFormatError.unsupported("the CFA image has \(samples) samples per pixel; a Bayer mosaic has 1")
            }
            switch (raw.integer(339) ?? 1, raw.integer(258) ?? 0) {
            case (2, _): throw MediaFormatError.unsupported("signed samples in the CFA image")
            case (3, ..<32): throw MediaFormatError.unsupported("half-float samples in the CFA image")
            default: break
            }
            for (tag, name) in [(UInt16(322), "TileWidth"), (323, "TileLength")] {
                if let value = raw.integer(tag), !(1...65_535).contains(value) {
                    throw MediaFormatError.invalidMetadata("\(name) \(value) is not a tile size")
                }
            }
            if let area = raw.integers(50829), area.count == 4, let width = raw.integer(256), let height = raw.integer(257),
               !(0 <= area[0] && area[0] < area[2] && area[2] <= height && 0 <= area[1] && area[1] < area[3] && area[3] <= width) {
                throw MediaFormatError.invalidMetadata("ActiveArea \(area.map(String.init).joined(separator: ", ")) does not lie "
                                                       + "inside the \(width)×\(height) image")
            }
        }
    }
}
