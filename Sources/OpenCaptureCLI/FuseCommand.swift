import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture fuse`: fuse any bracket of JPEG, PNG, TIFF, HEIC, DNG or camera-raw files.
struct FuseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "fuse",
        abstract: "Fuse a bracket of JPEG/PNG/TIFF/HEIC/DNG files into one photo (+ HDR when exposures are known).")

    @Argument(help: "The bracket's files, any order.") var inputs: [String]
    @Option(name: .shortAndLong, help: "Output JPEG (with --hdr, OUT-hdr.hdr and OUT-tonemapped.jpg are written beside it).") var output: String
    @Flag(help: "Also merge to scene-linear HDR: OUT-hdr.hdr and OUT-tonemapped.jpg (needs exposures from EXIF or --exposures).") var hdr = false
    @Option(help: "Relative exposures (duration × ISO), e.g. 0.25,1,4, when the files carry no EXIF; implies --hdr.") var exposures: String?
    @Flag(help: "Do not align the frames.") var noAlign = false
    @Flag(help: "Replace output files that already exist (by default an output never replaces a file).") var overwrite = false
    @Flag(help: "Align by one global shift only, not tile by tile.") var globalAlign = false
    @Flag(help: "Do not reject what moved between frames (deghosting).") var noDeghost = false
    @Option(parsing: .unconditional, help: "Weight of local contrast (as enfuse's --contrast-weight).") var contrastWeight: Double?
    @Option(parsing: .unconditional, help: "Weight of colour saturation (as enfuse's --saturation-weight).") var saturationWeight: Double?
    @Option(parsing: .unconditional, help: "Weight of well-exposedness (as enfuse's --exposure-weight).") var exposureWeight: Double?

    func validate() throws {
        guard inputs.count >= 2 else { throw CLIError("give at least two files to fuse") }
        // The fused photo is a JPEG: a name that says otherwise would hide what the file is.
        let outputExtension = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard ["jpg", "jpeg"].contains(outputExtension) else {
            throw CLIError("-o \(output): the fused photo is a JPEG; name it .jpg or .jpeg")
        }
        for (name, value) in [("--contrast-weight", contrastWeight), ("--saturation-weight", saturationWeight),
                              ("--exposure-weight", exposureWeight)] {
            if let value, !(value.isFinite && value >= 0) { throw CLIError("\(name) \(value) must be a number ≥ 0") }
        }
        _ = try exposureValues()
    }

    /// `--exposures` as positive numbers, one per input.
    func exposureValues() throws -> [Double]? {
        try exposures.map { text in
            let values = try text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Double in
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                guard let value = Double(trimmed), value.isFinite, value > 0 else {
                    throw CLIError("--exposures: '\(trimmed)' is not a positive number")
                }
                return value
            }
            guard values.count == inputs.count else { throw CLIError("--exposures gives \(values.count) values for \(inputs.count) files") }
            return values
        }
    }

    func run() throws {
        let fused = URL(fileURLWithPath: output)
        let paths = Self.outputs(fused)
        // Cheap checks first: every destination can be written before any input is decoded.
        let mergesHDR = hdr || exposures != nil
        let destinations = mergesHDR ? [paths.fused, paths.hdr, paths.toneMapped] : [paths.fused]
        for url in destinations { try AtomicFile.checkDestination(url) }
        try ExistingOutput.refuse(destinations, overwrite: overwrite)
        // Never write over a frame of the bracket.
        let sources = inputs.map { URL(fileURLWithPath: $0) }
        // One file given twice is not a bracket of two frames.
        for (i, a) in sources.enumerated() {
            if let j = sources[(i + 1)...].firstIndex(where: { AtomicFile.isSameFile(a, $0) }) {
                throw CLIError("\(inputs[i]) and \(inputs[j]) are the same file")
            }
        }
        if let clash = destinations.first(where: { destination in sources.contains { AtomicFile.isSameFile($0, destination) } }) {
            throw CLIError("\(clash.path) is one of the inputs; choose another output name")
        }
        var fusion = PhotoFusion()
        fusion.alignsImages = !noAlign
        fusion.alignsLocally = !globalAlign
        fusion.removesGhosts = !noDeghost
        fusion.mergesHDR = mergesHDR
        // --hdr asks for the HDR: without exposures that is an error before any work, not a fused photo and a note.
        fusion.requiresExposures = mergesHDR
        if let contrastWeight { fusion.contrastWeight = contrastWeight }
        if let saturationWeight { fusion.saturationWeight = saturationWeight }
        if let exposureWeight { fusion.exposureWeight = exposureWeight }
        let start = Date()
        let result = try fusion.fuse(contentsOf: inputs.map { URL(fileURLWithPath: $0) }, exposures: try exposureValues()) {
            print(String(format: "%7.2f s  ", Date().timeIntervalSince(start)) + $0)
        }
        try Self.write(result, to: paths, hdrRequested: mergesHDR, replacing: overwrite)
        // Fused all the same (a scene that changed a lot still fuses), but say when a frame looks like another scene.
        for (name, share) in zip(inputs, result.disagreement ?? []) where share > Self.otherSceneDisagreement {
            FileHandle.standardError.write(Data(String(format: "warning: %@ disagrees with the reference frame in %.0f %% of its clearly bright or dark pixels once aligned (a bracket of one scene stays well under %.0f %%): is it another scene?\n",
                                                       name, 100 * share, 100 * Self.otherSceneDisagreement).utf8))
        }
        print(String(format: "%7.2f s  done: %d×%d", Date().timeIntervalSince(start), result.width, result.height))
    }

    /// Above this share of disagreeing pixels (`PhotoFusionResult.disagreement`) a frame is reported as likely
    /// another scene: a camera's −2/0/+2 bracket gives 0–13 %, a frame turned 3° about 20 %, other photographs 43–48 %.
    static let otherSceneDisagreement = 0.35

    /// The fused JPEG and, beside it, BASE-hdr.hdr and BASE-tonemapped.jpg.
    static func outputs(_ fused: URL) -> (fused: URL, hdr: URL, toneMapped: URL) {
        var base = fused
        if ["jpg", "jpeg"].contains(base.pathExtension.lowercased()) { base.deletePathExtension() }
        return (fused, URL(fileURLWithPath: base.path + "-hdr.hdr"), URL(fileURLWithPath: base.path + "-tonemapped.jpg"))
    }

    /// Writes the fused JPEG and, when present, the HDR and its tone-mapped JPEG, as one set (none of them
    /// appears unless all were written).
    static func write(_ result: PhotoFusionResult, base: URL, replacing: Bool) throws {
        try write(result, to: outputs(base.appendingPathExtension("jpg")), replacing: replacing)
    }

    private static func write(_ result: PhotoFusionResult, to paths: (fused: URL, hdr: URL, toneMapped: URL),
                              hdrRequested: Bool = true, replacing: Bool = true) throws {
        var files = [(data: result.fusedJPEG, url: paths.fused)]
        if let hdr = result.radianceHDR, let toneMapped = result.toneMappedJPEG {
            files += [(hdr, paths.hdr), (toneMapped, paths.toneMapped)]
        }
        try AtomicFile.write(files, replacing: replacing)
        print("  → \(paths.fused.path) (\(result.mergedRaw ? "raw frames merged, then developed" : "exposure fusion"))")
        if !result.shifts.allSatisfy({ $0.dx == 0 && $0.dy == 0 }) {
            print("  shifts: " + result.shifts.map { "(\($0.dx), \($0.dy))" }.joined(separator: " "))
        }
        if files.count == 3 {
            print("  → \(paths.hdr.path) (scene-linear radiance)")
            print("  → \(paths.toneMapped.path) (HDR, tone-mapped)")
        } else if hdrRequested {
            print("  (no HDR merge)")
        }
    }
}
