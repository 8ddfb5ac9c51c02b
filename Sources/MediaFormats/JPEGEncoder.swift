import CJPEG
import CaptureCore
import Foundation

/// JPEG encoding with libjpeg-turbo, with camera-style APP1 EXIF and APP2 ICC metadata.
public enum JPEGEncoder {
    /// The largest APP1 payload a JPEG marker segment can carry.
    public static let maxAPP1PayloadSize = 65_533

    /// Encodes 8-bit RGB (3 channels), RGBA (4; alpha ignored) or gray (1) with libjpeg-turbo.
    /// quality 1…100 (default 90, like iPhone ≈ 0.9), 4:2:0 by default, optimised Huffman
    /// tables only when `optimizeCoding` is set. With `exif`, writes APP1 EXIF right after SOI
    /// (no JFIF APP0, like a camera) with `thumbnailJPEG` in IFD1 (its own APPn/COM segments are
    /// stripped; it is dropped if the APP1 would exceed 64 KB). PixelX/YDimension default to the
    /// image size. `iccProfile` goes into APP2 ICC_PROFILE chunks per the ICC spec. An image of 2 MP or more and 16
    /// MCU rows or more, with standard tables, carries a restart marker after every MCU row (a DRI segment; every JPEG
    /// reader handles them) and is encoded in stripes of at least 8 MCU rows on up to all cores.
    ///
    /// With `depth` and/or `portraitMatte`, the file is an iPhone "Most Compatible" portrait JPEG:
    /// an APP2 "MPF" index (CIPA DC-007) lists the primary image first, then the depth map and the
    /// matte as secondary grayscale JPEGs (quality 100, type Undefined) appended after the
    /// primary's EOI, each with Apple's depth or matte XMP (`DepthXMP`) in its own APP1.
    public static func encode(_ image: Raster<UInt8>, quality: Int = 90, subsampling: ChromaSubsampling = .yuv420,
                              exif: ExifMetadata? = nil, thumbnailJPEG: Data? = nil, iccProfile: Data? = nil,
                              optimizeCoding: Bool = false, depth: DepthAuxiliaryImage? = nil,
                              portraitMatte: MatteAuxiliaryImage? = nil) throws -> Data {
        let primary = try encodeImage(image, quality: quality, subsampling: subsampling, exif: exif, thumbnailJPEG: thumbnailJPEG,
                                      iccProfile: iccProfile, optimizeCoding: optimizeCoding)
        guard depth != nil || portraitMatte != nil else { return primary }
        var secondaries: [Data] = []
        if let depth {
            let (codes, metadata) = try depth.encoded()
            secondaries.append(try auxiliaryImage(codes, xmp: DepthXMP.packet(metadata)))
        }
        if let portraitMatte {
            secondaries.append(try auxiliaryImage(try portraitMatte.encoded(), xmp: DepthXMP.packet(MatteAuxiliaryImage.metadata)))
        }
        return try MultiPictureIndex.assemble(primary: primary, secondaries: secondaries)
    }

    /// XMP's APP1 signature.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// A grayscale JPEG of `codes` (quality 100) with `xmp` in an APP1 after its JFIF APP0.
    static func auxiliaryImage(_ codes: Raster<UInt8>, xmp: Data) throws -> Data {
        let jpeg = [UInt8](try encodeImage(codes, quality: 100, subsampling: .yuv444, exif: nil, thumbnailJPEG: nil, iccProfile: nil,
                                           optimizeCoding: true))
        let payload = xmpSignature + [UInt8](xmp)
        guard payload.count <= maxAPP1PayloadSize else {
            throw MediaFormatError.encoderFailed("XMP of \(payload.count) bytes does not fit one APP1 segment")
        }
        let segments = try JPEGSegments.segments(in: jpeg)
        let at = segments.first.map { $0.marker == 0xE0 ? $0.payload.upperBound : 2 } ?? 2
        let length = payload.count + 2
        return Data(jpeg[..<at] + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[at...])
    }

    private static func encodeImage(_ image: Raster<UInt8>, quality: Int, subsampling: ChromaSubsampling, exif: ExifMetadata?,
                                    thumbnailJPEG: Data?, iccProfile: Data?, optimizeCoding: Bool) throws -> Data {
        guard image.width > 0, image.height > 0, image.width <= Int(JPEG_MAX_DIMENSION), image.height <= Int(JPEG_MAX_DIMENSION) else {
            throw MediaFormatError.invalidImage("JPEG cannot hold a \(image.width)×\(image.height) image")
        }
        guard [1, 3, 4].contains(image.channels) else {
            throw MediaFormatError.unsupported("JPEG input with \(image.channels) channels")
        }
        guard (1...100).contains(quality) else {
            throw MediaFormatError.encoderFailed("quality \(quality) is outside 1…100")
        }
        var app1 = Data()
        if var exif {
            if exif.pixelXDimension == nil { exif.pixelXDimension = image.width }
            if exif.pixelYDimension == nil { exif.pixelYDimension = image.height }
            let thumbnail = try thumbnailJPEG.map(JPEGSegments.strippingMetadata)
            app1 = ExifWriter.app1Payload(for: exif, thumbnailJPEG: thumbnail)
            if app1.count > maxAPP1PayloadSize, thumbnail != nil {
                app1 = ExifWriter.app1Payload(for: exif)
            }
            guard app1.count <= maxAPP1PayloadSize else {
                throw MediaFormatError.encoderFailed("EXIF is \(app1.count) bytes, more than one APP1 segment holds")
            }
        }
        let icc = iccProfile ?? Data()
        // A large photo is encoded in stripes of at least 8 MCU rows on up to all cores (standard tables only: optimised
        // ones are per stripe). It carries restart markers however many cores there are, so its bytes do not depend
        // on the machine.
        let mcuHeight = image.channels != 1 && subsampling == .yuv420 ? 16 : 8
        let mcuRows = (image.height + mcuHeight - 1) / mcuHeight
        let striped = !optimizeCoding && image.width * image.height >= stripedPixels && mcuRows >= 16
        let stripes = striped ? max(1, min(Parallel.coreCount, mcuRows / 8)) : 1
        guard stripes > 1 else {
            return try encodeRows(of: image, rows: 0..<image.height, quality: quality, subsampling: subsampling,
                                  optimizeCoding: optimizeCoding, jfif: exif == nil, restartRows: striped ? 1 : 0, app1: app1,
                                  icc: icc)
        }
        let header = app1
        let firstRows = (0..<stripes).map { JPEGStripes.rows(stripe: $0, of: stripes, mcuRows: mcuRows).lowerBound }
        let parts = try Parallel.map(count: stripes) { (k: Int) throws(MediaFormatError) -> Data in
            let rows = JPEGStripes.rows(stripe: k, of: stripes, mcuRows: mcuRows)
            return try encodeRows(of: image, rows: (rows.lowerBound * mcuHeight)..<min(image.height, rows.upperBound * mcuHeight),
                                  quality: quality, subsampling: subsampling, optimizeCoding: false, jfif: exif == nil,
                                  restartRows: 1, app1: k == 0 ? header : Data(), icc: k == 0 ? icc : Data())
        }
        return try JPEGStripes.join(parts, height: image.height, firstRows: firstRows)
    }

    /// Pixels from which a JPEG is encoded in stripes on all cores (smaller ones on one).
    static let stripedPixels = 2_000_000

    /// A JPEG of `rows` of `image` (with a restart marker after every `restartRows` MCU rows; 0: none).
    static func encodeRows(of image: Raster<UInt8>, rows: Range<Int>, quality: Int, subsampling: ChromaSubsampling,
                                   optimizeCoding: Bool, jfif: Bool, restartRows: Int, app1: Data, icc: Data) throws(MediaFormatError)
        -> Data {
        try withEncoder { encoder in image.storage.withUnsafeBufferPointer { pixels in
            app1.withUnsafeBytes { app1Bytes in
                icc.withUnsafeBytes { iccBytes in
                    var params = ocj_encode_params()
                    params.width = Int32(image.width)
                    params.height = Int32(rows.count)
                    params.channels = Int32(image.channels)
                    params.stride = image.rowStride
                    params.quality = Int32(quality)
                    params.subsampling = subsampling == .yuv444 ? 0 : (subsampling == .yuv422 ? 1 : 2)
                    params.optimize_coding = optimizeCoding ? 1 : 0
                    params.write_jfif = jfif ? 1 : 0
                    params.restart_in_rows = Int32(restartRows)
                    params.app1 = app1Bytes.bindMemory(to: UInt8.self).baseAddress
                    params.app1_length = UInt32(app1Bytes.count)
                    params.icc = iccBytes.bindMemory(to: UInt8.self).baseAddress
                    params.icc_length = UInt32(iccBytes.count)
                    return ocj_encode(encoder, pixels.baseAddress.map { $0 + rows.lowerBound * image.rowStride }, &params)
                }
            }
        } }
    }

    /// Runs `encode` (an `ocj_encode` call, returning its status) on a new encoder and returns the JPEG it made, or
    /// the encoder's error.
    private static func withEncoder(_ encode: (UnsafeMutablePointer<ocj_encoder>) -> Int32) throws(MediaFormatError) -> Data {
        let encoder = UnsafeMutablePointer<ocj_encoder>.allocate(capacity: 1)
        encoder.initialize(to: ocj_encoder())
        defer {
            ocj_encoder_destroy(encoder)
            encoder.deallocate()
        }
        guard encode(encoder) == 0 else {
            throw MediaFormatError.encoderFailed(JPEGSegments.message(&encoder.pointee.err.message))
        }
        var size = 0
        guard let buffer = ocj_encoder_take_buffer(encoder, &size) else {
            throw MediaFormatError.encoderFailed("no output")
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    /// A CMYK JPEG of 4-channel `cmyk` (stored as given), coded as CMYK or, with `ycck`, as YCCK, with or without
    /// Adobe's APP14 marker — the files print workflows and ImageMagick write, for tests of their decoding.
    package static func encodeCMYK(_ cmyk: Raster<UInt8>, quality: Int = 95, ycck: Bool = false, adobeMarker: Bool = true) throws -> Data {
        precondition(cmyk.channels == 4, "CMYK needs four channels")
        return try withEncoder { encoder in cmyk.storage.withUnsafeBufferPointer { pixels in
            var params = ocj_encode_params()
            params.width = Int32(cmyk.width)
            params.height = Int32(cmyk.height)
            params.channels = 4
            params.stride = cmyk.rowStride
            params.quality = Int32(quality)
            params.cmyk = ycck ? 2 : 1
            params.adobe_marker = adobeMarker ? 1 : 0
            return ocj_encode(encoder, pixels.baseAddress, &params)
        } }
    }
}
