import CaptureCore
import Foundation

extension RawFileReader {
    /// The layout of an uncompressed 16-bit Bayer DNG's mosaic, when LibRaw would copy its samples as they are (or
    /// through the LinearizationTable, as LibRaw maps them): its raw directory (a CFA image of the size LibRaw
    /// reported) stores one 16-bit sample per pixel in strips or tiles that lie inside the file, with no MaskedAreas
    /// (LibRaw measures black from them while unpacking). LibRaw's unpack copies such a mosaic one sample at a time
    /// on one core; copying its rows directly gives the same values several times faster and on every core (and
    /// reads a mosaic of several tiles as TIFF lays them out, which LibRaw 0.20 reads as if it were strips). nil for
    /// anything else, which LibRaw unpacks.
    struct UncompressedMosaic {
        /// Offsets of the strips or tiles, row of blocks by row of blocks.
        let offsets: [Int]
        /// A block's size in samples (a strip is as wide as the image).
        let blockWidth: Int, blockHeight: Int
        let rawWidth: Int
        let bigEndian: Bool
        /// Every 16-bit code's linear value, from the LinearizationTable (LibRaw's `curve`: codes past the table's
        /// end take its last value); nil when the file has none.
        let linearization: [UInt16]?

        /// The layout of `raw` (the file's raw directory, `TIFFTagReader.dngRawDirectory`, one of `directories`, all
        /// the file's) in a file of `fileSize` bytes whose raw image LibRaw reported as `rawWidth` × `rawHeight`. Throws `.truncated` for tiles that are
        /// missing or lie past the end (which LibRaw 0.20 cannot read at all); strips that do are left to LibRaw,
        /// which reads strips as one run from the first.
        init?(_ reader: TIFFTagReader, directories: [TIFFTagReader.Directory], raw: TIFFTagReader.Directory, rawWidth: Int,
              rawHeight: Int, fileSize: Int) throws {
            guard rawWidth > 0, rawHeight > 0, raw.integer(262) == 32803,
                  raw.integer(256) == rawWidth, raw.integer(257) == rawHeight,
                  (raw.integer(259) ?? 1) == 1, raw.integer(258) == 16, (raw.integers(258) ?? []).allSatisfy({ $0 == 16 }),
                  (raw.integer(277) ?? 1) == 1, (raw.integer(284) ?? 1) == 1, (raw.integer(339) ?? 1) == 1 else { return nil }
            // LibRaw measures black from MaskedAreas in any directory, and linearizes with the last table it parsed
            // (IFD0's for a raw SubIFD without one) read as SHORTs: the copy takes only a SHORT table of the raw
            // directory itself, and no MaskedAreas anywhere.
            guard !directories.contains(where: { $0.contains(50830) }),
                  !directories.contains(where: { $0.contains(50712) && $0.offset != raw.offset }),
                  !raw.contains(50712) || raw.type(50712) == 3 else { return nil }
            if let table = raw.integers(50712), !table.isEmpty {
                guard table.count <= 65_536 else { return nil }
                let values = table.map { UInt16(truncatingIfNeeded: $0) }
                linearization = values + [UInt16](repeating: values[values.count - 1], count: 65_536 - values.count)
            } else {
                linearization = nil
            }
            let offsets: [Int], counts: [Int]
            if let tileOffsets = raw.integers(324) {
                guard let width = raw.integer(322), let height = raw.integer(323), (1...65_535).contains(width),
                      (1...65_535).contains(height), let tileCounts = raw.integers(325) else { return nil }
                (blockWidth, blockHeight, offsets, counts) = (width, height, tileOffsets, tileCounts)
            } else {
                guard let stripOffsets = raw.integers(273), let stripCounts = raw.integers(279) else { return nil }
                let rows = raw.integer(278) ?? rawHeight
                guard rows > 0 else { return nil }
                (blockWidth, blockHeight, offsets, counts) = (rawWidth, min(rows, rawHeight), stripOffsets, stripCounts)
            }
            let across = (rawWidth + blockWidth - 1) / blockWidth, down = (rawHeight + blockHeight - 1) / blockHeight
            let tiled = raw.contains(324)
            guard offsets.count == across * down, counts.count == offsets.count else {
                if tiled { throw MediaFormatError.truncated }
                return nil
            }
            for (index, (start, count)) in zip(offsets, counts).enumerated() {
                // A strip holds the rows left; a tile is always whole (padded past the image's edge).
                let rows = blockWidth == rawWidth ? min(blockHeight, rawHeight - index * blockHeight) : blockHeight
                let needed = rows * blockWidth * 2
                guard start > 0, count >= needed, start <= fileSize - needed else {
                    if tiled { throw MediaFormatError.truncated }
                    return nil
                }
            }
            self.offsets = offsets
            self.rawWidth = rawWidth
            bigEndian = !reader.isLittleEndian
        }

        /// The `width` × `height` samples from raw row `top`, column `left` on, in host order, copied on every core.
        func copy(from bytes: [UInt8], top: Int, left: Int, width: Int, height: Int) -> [UInt16] {
            let across = (rawWidth + blockWidth - 1) / blockWidth
            return [UInt16](unsafeUninitializedCapacity: width * height) { out, initialized in
                LargeAllocation.adviseHugePages(UnsafeMutableRawPointer(out.baseAddress!), bytes: width * height * 2)
                nonisolated(unsafe) let destination = out.baseAddress!
                bytes.withUnsafeBytes { file in
                    Parallel.forEachBand(height: height, bandHeight: 128) { rows in
                        for y in rows {
                            let row = top + y, to = destination + y * width
                            let blockRow = row / blockHeight, rowInBlock = row % blockHeight
                            // The blocks this row crosses, each contributing the columns it holds.
                            for blockColumn in (left / blockWidth)...((left + width - 1) / blockWidth) {
                                let first = max(left, blockColumn * blockWidth)
                                let end = min(left + width, (blockColumn + 1) * blockWidth)
                                let sample = rowInBlock * blockWidth + first - blockColumn * blockWidth
                                let from = file.baseAddress! + offsets[blockRow * across + blockColumn] + sample * 2
                                UnsafeMutableRawPointer(to + first - left).copyMemory(from: from, byteCount: (end - first) * 2)
                            }
                            if bigEndian {
                                for x in 0..<width { to[x] = to[x].byteSwapped }
                            }
                            if let linearization {
                                linearization.withUnsafeBufferPointer { curve in
                                    for x in 0..<width { to[x] = curve[Int(to[x])] }
                                }
                            }
                        }
                    }
                }
                initialized = width * height
            }
        }
    }
}
