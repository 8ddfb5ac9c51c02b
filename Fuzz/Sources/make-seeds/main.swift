import CaptureCore
import Foundation
import MediaFormats

// Writes the fuzzers' seed corpus: small files made by OpenCapture's own writers, plus a few
// hand-made edge cases. Usage: make-seeds <output folder>
let out = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "seeds", isDirectory: true)
try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
func save(_ name: String, _ data: Data) throws { try data.write(to: out.appendingPathComponent(name)) }

var image = Raster<UInt8>(width: 48, height: 32, channels: 3)
for y in 0..<32 { for x in 0..<48 { for c in 0..<3 { image.storage[(y * 48 + x) * 3 + c] = UInt8((x * 5 + y * 7 + c * 60) & 255) } } }
var thumb = Raster<UInt8>(width: 16, height: 12, channels: 3)
for i in thumb.storage.indices { thumb.storage[i] = UInt8(i & 255) }

var exif = ExifMetadata()
exif.make = "OpenCapture"; exif.model = "Simulated iPhone"; exif.software = "OpenCapture"
exif.exposureTime = 1.0 / 120; exif.fNumber = 1.8; exif.iso = 200; exif.focalLength = 3.99
exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_700_000_000); exif.timeZoneOffsetSeconds = 3600
exif.orientation = 6
exif.gps = GPSInfo(latitude: 48.85, longitude: 2.35)

let icc = ICCProfile.data(for: .displayP3)
let thumbJPEG = try JPEGEncoder.encode(thumb, quality: 70)
try save("photo.jpg", try JPEGEncoder.encode(image, quality: 80, exif: exif, thumbnailJPEG: thumbJPEG, iccProfile: icc))
try save("plain.jpg", try JPEGEncoder.encode(thumb, quality: 50, subsampling: .yuv444))
try save("photo.png", try PNGCodec.encode(image))
try save("photo.tif", try TIFFCodec.encode(image, orientation: 3))
var wide = Raster<UInt16>(width: 8, height: 6, channels: 3)
for i in wide.storage.indices { wide.storage[i] = UInt16(i * 1000 & 0xFFFF) }
try save("photo16.tif", try TIFF16Writer.encode(wide))
var hdr = Raster<Float>(width: 16, height: 4, channels: 3)
for i in hdr.storage.indices { hdr.storage[i] = Float(i % 7) * 0.37 }
try save("photo.hdr", try RadianceHDR.encode(hdr))
var options = HEIFEncodingOptions()
options.exif = exif
options.colorSpace = .displayP3
options.thumbnailMaxDimension = 16
options.tileSize = 64
options.quality = 0.3
var wideImage = Raster<UInt8>(width: 128, height: 64, channels: 3)
for i in wideImage.storage.indices { wideImage.storage[i] = UInt8((i / 3 % 128) * 2 & 255) }
try save("grid.heic", try HEIFEncoder.encode(wideImage, options: options))
options.thumbnailMaxDimension = nil
options.exif = nil
try save("single.heic", try HEIFEncoder.encode(thumb, options: options))

// Depth and matte: a 32×24 disparity map with holes and a calibration, a 16×16 matte.
var disparity = Raster<Float>(width: 32, height: 24, channels: 1, repeating: 0.4)
for y in 0..<24 { for x in 0..<32 { disparity[x, y] = (x - 16) * (x - 16) + (y - 12) * (y - 12) < 40 ? 1.5 : (x == 3 ? .nan : 0.4) } }
let depthMap = DepthMap(values: disparity, kind: .disparity, accuracy: .relative, isFiltered: false,
                        calibration: CameraCalibration(focalLength: SIMD2(2742, 2742), principalPoint: SIMD2(2016, 1512),
                                                       referenceDimensions: Size(width: 4032, height: 3024),
                                                       translation: SIMD3(-0.01, 0, 0), pixelSize: 0.0019,
                                                       lensDistortionLookupTable: [0, 0.001], inverseLensDistortionLookupTable: [0, -0.001]))
var matte = Raster<Float>(width: 16, height: 16, channels: 1, repeating: 0)
for i in matte.storage.indices where i % 16 > 4 { matte.storage[i] = 1 }
var depthOptions = HEIFEncodingOptions()
depthOptions.thumbnailMaxDimension = nil
depthOptions.quality = 0.3
depthOptions.depth = DepthAuxiliaryImage(map: depthMap)
depthOptions.portraitMatte = MatteAuxiliaryImage(matte: matte)
try save("depth.heic", try HEIFEncoder.encode(thumb, options: depthOptions))
try save("depth.jpg", try JPEGEncoder.encode(thumb, quality: 50, depth: DepthAuxiliaryImage(map: depthMap),
                                             portraitMatte: MatteAuxiliaryImage(matte: matte)))
try save("depth.xmp", DepthXMP.packet(try DepthAuxiliaryImage(map: depthMap).encoded().metadata))

var bayer = Raster<UInt16>(width: 32, height: 24)
for y in 0..<24 { for x in 0..<32 { bayer[x, y] = UInt16(600 + (x * 97 + y * 31) % 4000) } }
let raw = RawImage(bayer: bayer, cfa: .rggb, bitDepth: 12, blackLevel: [512, 512, 512, 512], whiteLevel: 4095,
                   asShotNeutral: SIMD3(0.5, 1, 0.7), cameraToSRGB: .identity,
                   noiseProfile: [(2e-5, 1e-7), (2e-5, 1e-7), (2e-5, 1e-7)], exposure: ExposureRecord(duration: 0.01, iso: 100))
let metadata = DNGMetadata.derived(from: raw, make: "OpenCapture", model: "Simulated iPhone", exif: exif)
try save("photo.dng", try DNGWriter.write(raw, metadata: metadata, preview: thumb))
try save("lossless.dng", try DNGWriter.write(raw, metadata: metadata, preview: nil, compression: .losslessJPEG))

// Hand-made edge cases: a PNG header claiming 20000×20000, a HEIF ispe of 2^32-1 squared,
// a TIFF whose tags use every field type, an empty EXIF.
func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
try save("huge.png", Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8)
                          + be32(20000) + be32(20000) + [8, 2, 0, 0, 0] + be32(0)))
var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
let types: [(UInt16, [UInt8])] = [(1, [7]), (2, [65, 0]), (3, [1, 2]), (4, [1, 2, 3, 4]), (6, [0xFF]), (7, [9]),
                                  (8, [0xFE, 0xFF]), (9, [0xFF, 0xFF, 0xFF, 0xFF]), (11, [0, 0, 0x80, 0x3F]), (13, [8, 0, 0, 0])]
tiff += [UInt8(types.count), 0]
for (k, t) in types.enumerated() {
    tiff += [UInt8(k + 1), 0x80, UInt8(t.0), 0, 1, 0, 0, 0] + t.1 + [UInt8](repeating: 0, count: 4 - t.1.count)
}
tiff += [0, 0, 0, 0]
try save("types.tif", Data(tiff))
// A tiny Live Photo movie (H.264 + AAC, paired atoms) and a Motion Photo made from it.
var movieSettings = MovieSettings(codec: .h264, width: 32, height: 32, frameRate: 15)
movieSettings.audio = (48_000, 1)
movieSettings.preset = "ultrafast"
let movieURL = out.appendingPathComponent("unpaired.mov")
let writer = try MovieWriter(url: movieURL, settings: movieSettings)
var square = Raster<UInt8>(width: 32, height: 32, channels: 3)
for i in square.storage.indices { square.storage[i] = UInt8((i * 7) & 255) }
for frame in 0..<3 {
    try writer.append(PixelBuffer.yCbCr420(from: square, fullRange: false, matrix: movieSettings.yCbCrMatrix)!, at: Double(frame) / 15)
    try writer.appendAudio([Int16](repeating: Int16(frame * 100), count: 3200))
}
try writer.finish()
let unpaired = try Data(contentsOf: movieURL)
try FileManager.default.removeItem(at: movieURL)
let live = try LivePhotoMovieAtoms.pair(unpaired, metadata: [(LivePhotoMovieAtoms.contentIdentifierKey, "8C0A6B52-4F5B-4D4B-A3C5-2D4E1F3B9A10")],
                                        stillImageTime: 0.1)
try save("live.mov", live)
try save("motion.jpg", try MotionPhoto.make(jpeg: try JPEGEncoder.encode(thumb, quality: 70), video: unpaired, presentationTimestampUs: 100_000))
print("seeds written to \(out.path)")
