import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture inspect`: what an image file holds — kind, size, EXIF, thumbnail, ICC profile, DNG tags.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "inspect",
        abstract: "Show what JPEG, PNG, TIFF, DNG, camera raw, HEIF and movie files hold (EXIF, thumbnail, ICC, DNG tags, depth, portrait matte and calibration, Motion Photo video, movie tracks and Live Photo pairing).")

    @Argument(help: "Image or movie files.") var inputs: [String]

    func validate() throws {
        guard !inputs.isEmpty else { throw CLIError("give at least one file") }
    }

    func run() throws {
        var failures = 0
        for (index, input) in inputs.enumerated() {
            if index > 0 { print("") }
            do {
                let report = try FileInspector.inspect(contentsOf: URL(fileURLWithPath: input))
                print(input)
                for line in report.lines { print("  " + line) }
                // The rest was shown; a damaged part still makes the file's check fail.
                for problem in report.problems {
                    FileHandle.standardError.write(Data("\(input): error: damaged \(problem)\n".utf8))
                }
                if !report.problems.isEmpty { failures += 1 }
            } catch {
                failures += 1
                FileHandle.standardError.write(Data("\(input): error: \(error)\n".utf8))
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
