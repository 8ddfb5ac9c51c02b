import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats

/// Demosaic CPSNR on the Kodak24 crops (RGGB mosaic, 10-pixel border excluded), when the data is present.
enum DemosaicBenchmark {
    static let anchors: [DemosaicMethod: String] = [
        .bilinear: "bilinear 29.81 dB (Kodak24 crops)",
        .malvarHeCutler: "Malvar-He-Cutler 35.32 dB; target ≥ 35 dB",
    ]

    static func run(_ options: BenchmarkOptions) throws {
        guard let root = options.dataDirectory else {
            print("demosaic: skipped (no ../shared/data; pass --data DIR)")
            return
        }
        let folder = URL(fileURLWithPath: root).appendingPathComponent("demosaic/kodak24")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        let images = try files.map { try PNGCodec.decode(Data(contentsOf: folder.appendingPathComponent($0))) }
        for method in DemosaicMethod.allCases {
            var total = 0.0, seconds = 0.0, pixels = 0
            for image in images {
                let (result, t) = measure { Demosaic.roundTrip(image, cfa: .rggb, method: method) }
                total += ImageQuality.cpsnr(result, image, border: 10)
                seconds += t
                pixels += image.width * image.height
            }
            report("demosaic.kodak24.\(method.rawValue).cpsnr", total / Double(images.count), "dB", format: "%.2f",
                   anchor: anchors[method] ?? "directional/RCD-class ≥ 37 dB")
            report("demosaic.kodak24.\(method.rawValue).speed", Double(pixels) / seconds / 1e6, "MP/s", format: "%.0f",
                   anchor: "round trip incl. 8-bit conversion")
        }
    }
}
