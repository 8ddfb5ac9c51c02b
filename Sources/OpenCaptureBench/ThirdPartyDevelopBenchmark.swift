import CaptureCore
import Foundation
import ImagePipeline
import MediaFormats
import OpenCapture

/// Develop quality on DNGs OpenCapture did not write: the Kodak24 and McMaster18 photographs
/// written as RGGB DNGs by PiDNG (scripts/make-third-party-dngs.py), developed by `RawDeveloper`
/// with its defaults and by LibRaw's `dcraw_emu` AHD (-q 3), DHT (-q 11) and AAHD (-q 12). Each
/// result is fitted to the photograph per channel (gain + gamma, removing each tool's tone curve)
/// and compared by CPSNR (10-pixel border excluded).
enum ThirdPartyDevelopBenchmark {
    static let libRawMethods = [("ahd", "3"), ("dht", "11"), ("aahd", "12")]

    /// Writes the DNGs with scripts/make-third-party-dngs.py (`large`: the one 12 MP tiled file) into `folder`: each
    /// file's path and its reference photograph's, or why they could not be made.
    static func makeDNGs(data: String, folder: URL, large: Bool) -> Result<[(dng: String, reference: String)], BenchmarkError> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/make-third-party-dngs.py").path
        guard let python = ExternalTool.find("python3") else { return .failure(BenchmarkError(description: "no python3")) }
        let made = ExternalTool.run(python, [script] + (large ? ["--large"] : []) + [data, folder.path])
        guard made.status == 0 else {
            return .failure(BenchmarkError(description: "PiDNG could not write the files: pip install pidng pillow"))
        }
        return .success(made.output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t").map(String.init)
            return parts.count == 2 ? (parts[0], parts[1]) : nil
        })
    }

    static func run(_ options: BenchmarkOptions) throws {
        guard let data = options.dataDirectory else {
            print("develop.third_party: skipped (no ../shared/data)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("opencapture-pidng-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pairs: [(dng: String, reference: String)]
        switch makeDNGs(data: data, folder: folder, large: false) {
        case .success(let made): pairs = made
        case .failure(let why):
            print("develop.third_party: skipped (\(why.description))")
            return
        }
        let dcraw = ExternalTool.find("dcraw_emu")
        let developer = RawDeveloper()
        var scores: [String: [String: [Double]]] = [:]   // collection → tool → CPSNR per image
        for (dng, referencePath) in pairs {
            let collection = String(URL(fileURLWithPath: dng).lastPathComponent.split(separator: "-")[0])
            let referenceData = try Data(contentsOf: URL(fileURLWithPath: referencePath))
            let reference = referencePath.hasSuffix(".png") ? try PNGCodec.decode(referenceData) : try TIFFCodec.decode(referenceData)
            func score(_ image: Raster<UInt8>) -> Double? {
                // The script writes even-sized photographs whole, so every develop has the photograph's size.
                guard image.width == reference.width, image.height == reference.height, image.channels == 3 else { return nil }
                return ImageQuality.cpsnr(DevelopBenchmark.fitted(image, to: reference), reference, border: 10)
            }
            let ours = try TIFFCodec.decode(try developer.develop(contentsOf: URL(fileURLWithPath: dng), as: .tiff).data)
            if let s = score(ours) { scores[collection, default: [:]]["opencapture", default: []].append(s) }
            guard let dcraw else { continue }
            for (name, quality) in libRawMethods {
                try ExternalTool.runChecked(dcraw, ["-q", quality, "-w", "-o", "1", "-T", dng])
                let tiff = try Data(contentsOf: URL(fileURLWithPath: dng + ".tiff"))
                if let s = score(try TIFFCodec.decode(tiff)) { scores[collection, default: [:]]["dcraw_emu_\(name)", default: []].append(s) }
            }
        }
        for collection in scores.keys.sorted() {
            let tools = scores[collection] ?? [:]
            func mean(_ tool: String) -> Double? { tools[tool].map { $0.reduce(0, +) / Double(max(1, $0.count)) } }
            let anchor = libRawMethods.compactMap { name, quality in
                mean("dcraw_emu_\(name)").map { String(format: "-q %@ %@ %.2f", quality, name.uppercased(), $0) }
            }.joined(separator: ", ")
            if let ours = mean("opencapture") {
                report("develop.third_party.\(collection).opencapture.cpsnr", ours, "dB", format: "%.2f",
                       anchor: anchor.isEmpty ? "dcraw_emu not installed" : "dcraw_emu \(anchor); target ≥ best")
            }
        }
    }
}
