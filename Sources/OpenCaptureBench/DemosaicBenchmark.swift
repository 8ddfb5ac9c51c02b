import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Demosaic CPSNR on the Kodak24 crops and McMaster18 (RGGB mosaic, 10-pixel border excluded), when the data is present.
enum DemosaicBenchmark {
    static let anchors: [String: [DemosaicMethod: String]] = [
        "kodak24": [.bilinear: "bilinear 29.81 dB", .malvarHeCutler: "Malvar-He-Cutler 35.32 dB; target ≥ 35 dB",
                    .edgeDirected: "directional/RCD-class gate ≥ 37 dB",
                    .residualInterpolation: "default; target ≥ 38.5 dB"],
        "mcmaster18": [.bilinear: "gate ≥ 32 dB", .malvarHeCutler: "Malvar-He-Cutler 34.20 dB (Menon 34.23)",
                       .edgeDirected: "gate ≥ MHC", .residualInterpolation: "default; target ≥ 36 dB"],
    ]

    static func run(_ options: BenchmarkOptions) throws {
        guard let root = options.dataDirectory else {
            print("demosaic: skipped (no ../shared/data; pass --data DIR)")
            return
        }
        for set in ["kodak24", "mcmaster18"] {
            let folder = URL(fileURLWithPath: root).appendingPathComponent("demosaic/\(set)")
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() else { continue }
            let images = try files.compactMap { name -> Raster<UInt8>? in
                let data = try Data(contentsOf: folder.appendingPathComponent(name))
                if name.hasSuffix(".png") { return try PNGCodec.decode(data) }
                if name.hasSuffix(".tif") || name.hasSuffix(".tiff") { return try TIFFCodec.decode(data) }
                return nil
            }
            try run(set: set, images: images)
        }
    }

    static func run(set: String, images: [Raster<UInt8>]) throws {
        for method in DemosaicMethod.allCases {
            var total = 0.0, seconds = 0.0, pixels = 0
            for image in images {
                let (result, t) = measure { Demosaic.roundTrip(image, cfa: .rggb, method: method) }
                total += ImageQuality.cpsnr(result, image, border: 10)
                seconds += t
                pixels += image.width * image.height
            }
            report("demosaic.\(set).\(method.rawValue).cpsnr", total / Double(images.count), "dB", format: "%.2f",
                   anchor: anchors[set]?[method])
            report("demosaic.\(set).\(method.rawValue).speed", Double(pixels) / seconds / 1e6, "MP/s", format: "%.0f",
                   anchor: "round trip incl. 8-bit conversion")
        }
    }
}
