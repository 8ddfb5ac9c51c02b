import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture develop`: develop camera raw files and DNGs with OpenCapture's own pipeline.
struct DevelopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "develop",
        abstract: "Develop camera raw / DNG files with OpenCapture's own pipeline (LibRaw only reads them).")

    @Argument(help: "Raw or DNG files.") var inputs: [String]
    @Option(name: .shortAndLong, help: "Output directory (created if missing).") var output: String
    @Option(help: "jpeg, png, tiff or tiff16.") var format: String = "jpeg"
    @Option(help: "residualInterpolation (default), edgeDirected, malvarHeCutler or bilinear.") var demosaic: String = "residualInterpolation"
    @Option(parsing: .unconditional, help: "Exposure compensation in EV.") var exposure: Double = 0
    @Option(parsing: .unconditional, help: "Noise reduction strength (0 = off, 1 = default).") var noiseReduction: Double = 1
    @Option(parsing: .unconditional, help: "Sharpening (0 = off, the faithful default; 0.5 = the look of OpenCapture's camera photos).") var sharpening: Double = 0
    @Option(parsing: .unconditional, help: "JPEG quality 0…1.") var quality: Double = 0.92
    @Flag(help: "Replace output files that already exist (by default a developed file never replaces one).") var overwrite = false

    func validate() throws {
        guard !inputs.isEmpty else { throw CLIError("give at least one raw file") }
        guard DevelopedFileFormat(rawValue: format.lowercased()) != nil else {
            throw CLIError("--format must be one of \(DevelopedFileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard RawDemosaicMethod.allCases.contains(where: { $0.rawValue.lowercased() == demosaic.lowercased() }) else {
            throw CLIError("--demosaic must be one of \(RawDemosaicMethod.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard exposure.isFinite, abs(exposure) <= 10 else { throw CLIError("--exposure \(exposure) EV must be within -10…10") }
        guard noiseReduction.isFinite, (0...10).contains(noiseReduction) else {
            throw CLIError("--noise-reduction \(noiseReduction) must be within 0…10")
        }
        guard sharpening.isFinite, (0...10).contains(sharpening) else { throw CLIError("--sharpening \(sharpening) must be within 0…10") }
        guard !output.isEmpty else { throw CLIError("-o: give an output folder") }
        guard quality.isFinite, (0...1).contains(quality) else { throw CLIError("--quality \(quality) must be within 0…1") }
    }

    func run() throws {
        guard let format = DevelopedFileFormat(rawValue: format.lowercased()),
              let method = RawDemosaicMethod.allCases.first(where: { $0.rawValue.lowercased() == demosaic.lowercased() }) else {
            throw CLIError("unknown --format or --demosaic")
        }
        var developer = RawDeveloper()
        developer.demosaic = method
        developer.exposureCompensation = exposure
        developer.noiseReduction = noiseReduction
        developer.sharpening = sharpening
        developer.jpegQuality = quality
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        // The folders this run makes for its output: taken back (those left empty) if nothing is developed into them.
        let made = Self.missingFolders(directory)
        var failures = 0
        var written: Set<String> = []
        // An interrupt takes them back too (a TIFF's folder is made before the photo is developed into it).
        InterruptCleanup.takeBack(made)
        defer {
            InterruptCleanup.keep(made)
            if written.isEmpty { Self.removeEmpty(made) }
        }
        for input in inputs {
            let source = URL(fileURLWithPath: input)
            let start = Date()
            do {
                let target = directory.appendingPathComponent(source.deletingPathExtension().lastPathComponent)
                    .appendingPathExtension(format.fileExtension)
                // A developed file never replaces another (the camera's own JPEG beside its RAW, an input, the file
                // an earlier input of this run made) unless asked to.
                let key = AtomicFile.canonicalPath(target)
                if written.contains(key) {
                    throw CLIError("\(target.path) was made from an earlier input of this run (same name)")
                }
                // Not even with --overwrite over the raw itself (a raw named .tif developed to TIFF beside it), nor over
                // another raw of this run (a raw named .jpg, another developed to JPEG beside it).
                if let other = inputs.first(where: { AtomicFile.isSameFile(URL(fileURLWithPath: $0), target) }) {
                    throw CLIError(AtomicFile.isSameFile(source, target)
                        ? "\(target.path) is the raw file itself; choose another output folder or format"
                        : "\(target.path) is \(other), an input of this run; choose another output folder or format")
                }
                try ExistingOutput.refuse([target], overwrite: overwrite)
                let photo = try developer.develop(contentsOf: source, as: format, to: target, replacing: overwrite)
                written.insert(key)
                let seconds = String(format: "%.2f s", Date().timeIntervalSince(start))
                print("\(input) → \(target.path)  \(photo.width)×\(photo.height)  \(Self.byteCount(photo.byteCount))  \(seconds)")
            } catch let error as FileAccessError where error.operation == .createFolder {
                throw error  // no output folder: nothing else can be written either
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("\(input): error: \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// `folder` and its ancestors that do not exist yet, deepest first.
    static func missingFolders(_ folder: URL) -> [URL] {
        var missing: [URL] = [], current = folder.standardizedFileURL
        while current.path != "/", !AtomicFile.exists(current) {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        return missing
    }

    /// Removes each of `folders` (deepest first) while it is empty; stops at the first that is not.
    static func removeEmpty(_ folders: [URL]) {
        for folder in folders where rmdir(folder.path) != 0 { return }
    }

    static func byteCount(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1_048_576) : String(format: "%.0f KB", Double(bytes) / 1024)
    }
}
