import CTIFF
import CaptureCore
import Foundation

/// Writes a RawImage as DNG 1.4 with libtiff.
///
/// Layout (the common "preview in IFD0, raw in SubIFD" form): IFD0 is an uncompressed 8-bit RGB
/// preview (NewSubFileType 1) carrying the camera-profile tags and pointing to the EXIF IFD;
/// SubIFD 1 is the 16-bit CFA image (NewSubFileType 0, Photometric 32803) with its CFA,
/// black/white level and crop tags, in uncompressed strips or lossless JPEG tiles.
/// ForwardMatrix and NoiseProfile, which libtiff 4.5.0 lacks, are registered with a tag extender
/// (CTIFF's `opencapture_dng_register_tags`); the EXIF IFD is appended after libtiff closes the file.
public enum DNGWriter {
    /// Writes the DNG. `preview` is the developed photo in sRGB (downscaled to at most
    /// `maxPreviewDimension` on its long side; tagged PreviewColorSpace sRGB); nil makes a small one from the mosaic.
    public static func write(_ raw: RawImage, metadata: DNGMetadata, preview: Raster<UInt8>?,
                             compression: DNGCompression = .none) throws -> Data {
        try write(raw, metadata: metadata, preview: preview, compression: compression, stripBytes: 8 << 20)
    }

    /// Long side of the IFD0 preview, in pixels.
    public static let maxPreviewDimension = 1024

    static func write(_ raw: RawImage, metadata: DNGMetadata, preview: Raster<UInt8>?,
                      compression: DNGCompression = .none, stripBytes: Int) throws -> Data {
        #if _endian(big)
        throw MediaFormatError.unsupported("DNG writing needs a little-endian host")
        #else
        try validate(raw, metadata)
        let thumbnail = try preview.map { try downscaled($0) } ?? generatedPreview(raw)
        _ = dngTagsRegistered
        let rawBytes = raw.width * raw.height * 2
        let file = TIFFStream(capacity: rawBytes + thumbnail.storage.count + 65_536)
        guard let tif = file.openForWriting() else { throw MediaFormatError.encoderFailed("libtiff could not start a file") }
        var open = true
        defer { if open { TIFFClose(tif) } }

        var ifd0 = TIFFFieldWriter(tif)
        setImageFields(&ifd0, width: thumbnail.width, height: thumbnail.height, bits: 8, samples: 3,
                       photometric: UInt16(PHOTOMETRIC_RGB), compression: UInt16(COMPRESSION_NONE))
        ifd0.u32(TIFFTAG_ROWSPERSTRIP, UInt32(thumbnail.height))
        ifd0.u32(TIFFTAG_SUBFILETYPE, UInt32(FILETYPE_REDUCEDIMAGE))
        ifd0.u32(tagPreviewColorSpace, 2)   // sRGB (DNG has no code for Display P3: the writer's caller converts)
        setProfileFields(&ifd0, raw: raw, metadata: metadata)
        ifd0.counted(TIFFTAG_SUBIFD, [UInt64(0)])
        ifd0.u64(TIFFTAG_EXIFIFD, 0)  // placeholder: the EXIF IFD is appended after libtiff is done
        if metadata.exif.gps != nil { ifd0.u64(TIFFTAG_GPSIFD, 0) }   // placeholder, the same for the GPS IFD
        try ifd0.finish("preview IFD")
        try thumbnail.storage.withUnsafeBytes { try writeStrip(tif, 0, $0) }
        guard TIFFWriteDirectory(tif) == 1 else { throw MediaFormatError.encoderFailed("libtiff could not write IFD0") }

        // The next directory written becomes SubIFD 1: the mosaic.
        var sub = TIFFFieldWriter(tif)
        sub.u32(TIFFTAG_SUBFILETYPE, 0)
        setRawFields(&sub, raw: raw)
        switch compression {
        case .none: try writeStrips(tif, &sub, raw: raw, stripBytes: stripBytes)
        case .losslessJPEG: try writeLosslessJPEGTiles(tif, &sub, raw: raw)
        }
        guard TIFFWriteDirectory(tif) == 1 else { throw MediaFormatError.encoderFailed("libtiff could not write the raw IFD") }
        open = false
        TIFFClose(tif)
        try appendExif(metadata.exif, to: file)
        return file.takeData()
        #endif
    }

    private static func writeStrips(_ tif: OpaquePointer, _ sub: inout TIFFFieldWriter, raw: RawImage, stripBytes: Int) throws {
        let rowBytes = raw.width * 2
        let rowsPerStrip = min(raw.height, max(2, (stripBytes / rowBytes) & ~1))
        setImageFields(&sub, width: raw.width, height: raw.height, bits: 16, samples: 1,
                       photometric: UInt16(PHOTOMETRIC_CFA), compression: UInt16(COMPRESSION_NONE))
        sub.u32(TIFFTAG_ROWSPERSTRIP, UInt32(rowsPerStrip))
        try sub.finish("raw IFD")
        try raw.bayer.storage.withUnsafeBytes { bytes in
            var strip: UInt32 = 0
            for start in stride(from: 0, to: raw.height, by: rowsPerStrip) {
                let rows = min(rowsPerStrip, raw.height - start)
                try writeStrip(tif, strip, UnsafeRawBufferPointer(rebasing: bytes[start * rowBytes ..< (start + rows) * rowBytes]))
                strip += 1
            }
        }
    }

    /// Lossless JPEG tiles, encoded on all cores; edge tiles are padded by repeating the last
    /// two columns and rows (keeping the CFA phase). Tiles are never wider than the image:
    /// LibRaw 0.20 wraps a tile's rows at the image width, which scrambles a wider padded tile.
    private static func writeLosslessJPEGTiles(_ tif: OpaquePointer, _ sub: inout TIFFFieldWriter, raw: RawImage) throws {
        let w = raw.width, h = raw.height
        guard w >= 16, h >= 16 else { throw MediaFormatError.unsupported("lossless JPEG DNG needs at least 16×16 photosites") }
        let tileWidth = min(256, w / 16 * 16), tileLength = min(256, (h + 15) / 16 * 16)
        guard raw.bayer.storage.allSatisfy({ $0 < 0x8000 }) else {
            throw MediaFormatError.unsupported("lossless JPEG DNG needs codes below 32768")
        }
        setImageFields(&sub, width: w, height: h, bits: 16, samples: 1,
                       photometric: UInt16(PHOTOMETRIC_CFA), compression: UInt16(COMPRESSION_JPEG))
        sub.u32(TIFFTAG_TILEWIDTH, UInt32(tileWidth))
        sub.u32(TIFFTAG_TILELENGTH, UInt32(tileLength))
        try sub.finish("raw IFD")
        let across = (w + tileWidth - 1) / tileWidth, down = (h + tileLength - 1) / tileLength
        var encoded = [[UInt8]](repeating: [], count: across * down)
        raw.bayer.storage.withUnsafeBufferPointer { source in
            encoded.withUnsafeMutableBufferPointer { results in
                nonisolated(unsafe) let results = results
                Parallel.forEachBandIndexed(height: across * down, bandHeight: 1) { index, _ in
                    let x0 = (index % across) * tileWidth, y0 = (index / across) * tileLength
                    var scratch = [UInt16](repeating: 0, count: tileWidth * tileLength)
                    for y in 0..<tileLength {
                        let sy = y0 + y < h ? y0 + y : h - 2 + ((y0 + y - h) & 1)
                        for x in 0..<tileWidth {
                            let sx = x0 + x < w ? x0 + x : w - 2 + ((x0 + x - w) & 1)
                            scratch[y * tileWidth + x] = source[sy * w + sx]
                        }
                    }
                    results[index] = scratch.withUnsafeBufferPointer {
                        LosslessJPEGEncoder.encode($0.baseAddress!, rowStride: tileWidth, width: tileWidth, height: tileLength)
                    }
                }
            }
        }
        for (index, bytes) in encoded.enumerated() {
            let written = bytes.withUnsafeBytes {
                TIFFWriteRawTile(tif, UInt32(index), UnsafeMutableRawPointer(mutating: $0.baseAddress), tmsize_t($0.count))
            }
            guard written == bytes.count else { throw MediaFormatError.encoderFailed("libtiff could not write tile \(index)") }
        }
    }

    private static func validate(_ raw: RawImage, _ metadata: DNGMetadata) throws {
        guard raw.width >= 2, raw.height >= 2, raw.bayer.channels == 1 else {
            throw MediaFormatError.unsupported("DNG needs a one-channel mosaic of at least 2×2, got \(raw.width)×\(raw.height)×\(raw.bayer.channels)")
        }
        guard raw.width < 1 << 16, raw.height < 1 << 16 else { throw MediaFormatError.unsupported("mosaic too large for DNG") }
        guard raw.blackLevel.count == 1 || raw.blackLevel.count == 4 else {
            throw MediaFormatError.unsupported("black level needs 1 or 4 values, got \(raw.blackLevel.count)")
        }
        guard (1...65_535).contains(raw.whiteLevel), raw.blackLevel.allSatisfy({ $0 >= 0 && $0 < Float(raw.whiteLevel) }) else {
            throw MediaFormatError.unsupported("black level \(raw.blackLevel) / white level \(raw.whiteLevel) out of range")
        }
        guard raw.asShotNeutral.min() > 0, raw.asShotNeutral.max().isFinite else {
            throw MediaFormatError.unsupported("as-shot neutral must be positive, got \(raw.asShotNeutral)")
        }
        let matrices = [metadata.colorMatrix1, metadata.colorMatrix2, metadata.forwardMatrix1, metadata.forwardMatrix2].compactMap { $0 }
        guard matrices.allSatisfy({ $0.m.allSatisfy(\.isFinite) && $0.inverse != nil }) else {
            throw MediaFormatError.unsupported("colour and forward matrices must be finite and invertible")
        }
        if metadata.colorMatrix2 != nil, metadata.calibrationIlluminant1 == metadata.calibrationIlluminant2 {
            throw MediaFormatError.unsupported("two colour matrices need two different calibration illuminants")
        }
    }

    private static func setImageFields(_ f: inout TIFFFieldWriter, width: Int, height: Int, bits: UInt16, samples: UInt16,
                                       photometric: UInt16, compression: UInt16) {
        f.u32(TIFFTAG_IMAGEWIDTH, UInt32(width))
        f.u32(TIFFTAG_IMAGELENGTH, UInt32(height))
        f.u16(TIFFTAG_BITSPERSAMPLE, bits)
        f.u16(TIFFTAG_SAMPLESPERPIXEL, samples)
        f.u16(TIFFTAG_PHOTOMETRIC, photometric)
        f.u16(TIFFTAG_COMPRESSION, compression)
        f.u16(TIFFTAG_PLANARCONFIG, UInt16(PLANARCONFIG_CONTIG))
    }

    /// IFD0: identity and the camera profile.
    private static func setProfileFields(_ f: inout TIFFFieldWriter, raw: RawImage, metadata m: DNGMetadata) {
        f.ascii(TIFFTAG_MAKE, m.make)
        f.ascii(TIFFTAG_MODEL, m.model)
        f.ascii(TIFFTAG_SOFTWARE, m.software)
        f.ascii(TIFFTAG_IMAGEDESCRIPTION, m.exif.imageDescription)
        f.ascii(TIFFTAG_ARTIST, m.exif.artist)
        f.ascii(TIFFTAG_COPYRIGHT, m.exif.copyright)
        if let date = m.exif.dateTimeOriginal {
            f.ascii(TIFFTAG_DATETIME, ExifDate(date: date, offsetSeconds: m.exif.timeZoneOffsetSeconds).dateTime)
        }
        f.u16(TIFFTAG_ORIENTATION, UInt16((1...8).contains(m.orientation) ? m.orientation : 1))
        f.double(TIFFTAG_XRESOLUTION, 72)
        f.double(TIFFTAG_YRESOLUTION, 72)
        f.u16(TIFFTAG_RESOLUTIONUNIT, UInt16(RESUNIT_INCH))
        f.array(TIFFTAG_DNGVERSION, [UInt8(1), 4, 0, 0])
        f.array(TIFFTAG_DNGBACKWARDVERSION, [UInt8(1), 1, 0, 0])
        f.ascii(TIFFTAG_UNIQUECAMERAMODEL, m.uniqueCameraModel)
        f.counted(TIFFTAG_COLORMATRIX1, floats(m.colorMatrix1))
        f.u16(TIFFTAG_CALIBRATIONILLUMINANT1, m.calibrationIlluminant1)
        if let fm1 = m.forwardMatrix1 { f.counted(tagForwardMatrix1, floats(fm1)) }
        if let cm2 = m.colorMatrix2 {
            f.counted(TIFFTAG_COLORMATRIX2, floats(cm2))
            f.u16(TIFFTAG_CALIBRATIONILLUMINANT2, m.calibrationIlluminant2)
            if let fm2 = m.forwardMatrix2 { f.counted(tagForwardMatrix2, floats(fm2)) }
        }
        let n = raw.asShotNeutral
        f.counted(TIFFTAG_ASSHOTNEUTRAL, [Float(n.x), Float(n.y), Float(n.z)])
        f.double(TIFFTAG_BASELINEEXPOSURE, m.baselineExposure)
        let profile = raw.noiseProfile.count == 1 ? Array(repeating: raw.noiseProfile[0], count: 3) : raw.noiseProfile
        if profile.count == 3, profile.allSatisfy({ $0.scale > 0 && $0.offset >= 0 && $0.scale.isFinite && $0.offset.isFinite }) {
            f.counted(tagNoiseProfile, profile.flatMap { [$0.scale, $0.offset] })
        }
    }

    /// SubIFD 1: how to read the mosaic.
    private static func setRawFields(_ f: inout TIFFFieldWriter, raw: RawImage) {
        f.array(TIFFTAG_CFAREPEATPATTERNDIM, [UInt16(2), 2])
        f.counted(TIFFTAG_CFAPATTERN, raw.cfa.colors.map { UInt8($0) })
        f.counted(TIFFTAG_CFAPLANECOLOR, [UInt8(0), 1, 2])
        f.u16(TIFFTAG_CFALAYOUT, 1)
        f.array(TIFFTAG_BLACKLEVELREPEATDIM, [UInt16(2), 2])
        f.counted(TIFFTAG_BLACKLEVEL, raw.blackLevel.count == 4 ? raw.blackLevel : Array(repeating: raw.blackLevel[0], count: 4))
        f.counted(TIFFTAG_WHITELEVEL, [UInt32(raw.whiteLevel)])
        f.array(TIFFTAG_DEFAULTSCALE, [Float(1), 1])
        f.array(TIFFTAG_DEFAULTCROPORIGIN, [Float(0), 0])
        f.array(TIFFTAG_DEFAULTCROPSIZE, [Float(raw.width), Float(raw.height)])
        f.array(TIFFTAG_ACTIVEAREA, [UInt32(0), 0, UInt32(raw.height), UInt32(raw.width)])
        // The lens's flaws stay in the mosaic; the opcodes tell a raw converter how to undo them.
        if let lens = raw.lensCorrection, lens.size == Size(width: raw.width, height: raw.height) {
            if let list = DNGOpcodeList.vignettingList(lens) { f.counted(tagOpcodeList2, list) }
            if let list = DNGOpcodeList.warpList(lens) { f.counted(tagOpcodeList3, list) }
        }
    }

    private static func writeStrip(_ tif: OpaquePointer, _ strip: UInt32, _ bytes: UnsafeRawBufferPointer) throws {
        let written = TIFFWriteRawStrip(tif, strip, UnsafeMutableRawPointer(mutating: bytes.baseAddress), tmsize_t(bytes.count))
        guard written == bytes.count else { throw MediaFormatError.encoderFailed("libtiff could not write strip \(strip)") }
    }

    private static func floats(_ m: Matrix3) -> [Float] { m.m.map { Float($0) } }

    static let tagForwardMatrix1: Int32 = 50964
    static let tagForwardMatrix2: Int32 = 50965
    static let tagNoiseProfile: Int32 = 51041
    static let tagOpcodeList2: Int32 = 51009
    static let tagOpcodeList3: Int32 = 51022
    static let tagPreviewColorSpace: Int32 = 50970
}

/// Installs the DNG tag extender once per process, before the first DNG is written.
let dngTagsRegistered: Void = opencapture_dng_register_tags()
