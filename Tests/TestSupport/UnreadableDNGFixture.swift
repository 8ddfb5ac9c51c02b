import CaptureCore
import Foundation
import MediaFormats

/// Whole DNGs — their TIFF structure sound, their strips or tiles inside the file — that LibRaw cannot read: what
/// `library import` must refuse, as Photos refuses a raw it cannot read, rather than store one never shown.
public enum UnreadableDNGFixture {
    /// A DNG of a `width`×`height` grey ramp (uncompressed strips, or lossless JPEG tiles 256 wide).
    public static func dng(width: Int, height: Int, compression: DNGCompression = .none) throws -> Data {
        var bayer = Raster<UInt16>(width: width, height: height)
        for y in 0..<height { for x in 0..<width { bayer[x, y] = UInt16(600 + (x * 37 + y * 11) % 9000) } }
        let raw = RawImage(bayer: bayer, cfa: .rggb, bitDepth: 14, blackLevel: [512, 512, 512, 512], whiteLevel: 16383,
                           asShotNeutral: SIMD3(0.5, 1, 0.6), cameraToSRGB: .identity,
                           noiseProfile: [(2e-5, 1e-7)], exposure: ExposureRecord(duration: 1.0 / 60, iso: 100))
        return try DNGWriter.write(raw, metadata: DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Test", exif: ExifMetadata()),
                                   preview: nil, compression: compression)
    }

    /// A 2×2 DNG: LibRaw takes no frame under 22 pixels.
    public static func tiny() throws -> Data { try dng(width: 2, height: 2) }

    /// A 600×24 DNG in three lossless JPEG tiles whose TileOffsets and TileByteCounts list two: the tile table is short.
    public static func shortTileTable() throws -> Data {
        var bytes = [UInt8](try dng(width: 600, height: 24, compression: .losslessJPEG))
        var patched = 0
        // Little-endian IFD entries: tag 324 or 325, type LONG (4), count 3 — made count 2.
        for tag: UInt8 in [0x44, 0x45] {
            let entry: [UInt8] = [tag, 0x01, 0x04, 0x00, 0x03, 0x00, 0x00, 0x00]
            for i in 0..<(bytes.count - 8) where Array(bytes[i..<i + 8]) == entry {
                bytes[i + 4] = 2
                patched += 1
            }
        }
        precondition(patched == 2, "the raw image's tile table was not found (\(patched) entries)")
        return Data(bytes)
    }
}
