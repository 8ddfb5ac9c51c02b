import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture fuse`: fuse any bracket of JPEG, PNG, TIFF, DNG or camera-raw files.
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuse",
        abstract: "Fuse a bracket of JPEG/PNG/TIFF/DNG files into one photo (+ HDR when exposures are known).")

    @Argument(help: "The bracket's files, any order.") var inputs: [String]
    @Option(name: .shortAndLong, help: "Output JPEG; OUT-hdr.hdr and OUT-tonemapped.jpg are written beside it.") var output: String
    @Option(help: "Relative exposures (duration × ISO), e.g. 0.25,1,4, when the files carry no EXIF.") var exposures: String?
    @Flag(help: "Do not align the frames.") var noAlign = false

    func run() throws {
        guard inputs.count >= 2 else { throw ValidationError("give at least two files") }
        let exposureValues = try exposures.map { text in
            try text.split(separator: ",").map { part -> Double in
                guard let value = Double(part), value > 0 else { throw ValidationError("--exposures: '\(part)' is not a positive number") }
                return value
            }
        }
        var fusion = PhotoFusion()
        fusion.alignsImages = !noAlign
        let start = Date()
        let result = try fusion.fuse(contentsOf: inputs.map { URL(fileURLWithPath: $0) }, exposures: exposureValues) {
            print(String(format: "%7.2f s  ", Date().timeIntervalSince(start)) + $0)
        }
        var base = URL(fileURLWithPath: output)
        if base.pathExtension.lowercased() == "jpg" || base.pathExtension.lowercased() == "jpeg" { base.deletePathExtension() }
        try Self.write(result, base: base, fusedName: output)
        print(String(format: "%7.2f s  done: %d×%d", Date().timeIntervalSince(start), result.width, result.height))
    }

    /// Writes the fused JPEG and, when present, the HDR and its tone-mapped JPEG.
    static func write(_ result: PhotoFusionResult, base: URL, fusedName: String? = nil) throws {
        let fused = fusedName.map { URL(fileURLWithPath: $0) } ?? base.appendingPathExtension("jpg")
        try result.fusedJPEG.write(to: fused)
        print("  → \(fused.path) (exposure fusion)")
        if !result.shifts.allSatisfy({ $0.dx == 0 && $0.dy == 0 }) {
            print("  shifts: " + result.shifts.map { "(\($0.dx), \($0.dy))" }.joined(separator: " "))
        }
        if let hdr = result.radianceHDR, let toneMapped = result.toneMappedJPEG {
            let hdrURL = URL(fileURLWithPath: base.path + "-hdr.hdr"), toneURL = URL(fileURLWithPath: base.path + "-tonemapped.jpg")
            try hdr.write(to: hdrURL)
            try toneMapped.write(to: toneURL)
            print("  → \(hdrURL.path) (scene-linear radiance)")
            print("  → \(toneURL.path) (HDR, tone-mapped)")
        } else {
            print("  (no HDR merge: exposures unknown; pass --exposures)")
        }
    }
}
