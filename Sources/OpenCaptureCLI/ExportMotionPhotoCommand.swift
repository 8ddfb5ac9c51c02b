import ArgumentParser
import Foundation
import OpenCapture

/// `opencapture export-motion-photo`: a Live Photo pair → a Google/Samsung Motion Photo JPEG or HEIC.
struct ExportMotionPhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-motion-photo",
        abstract: "Turn a Live Photo pair (still + movie, OpenCapture's or an iPhone's) into a Google/Samsung Motion Photo (JPEG, or HEIC when the output ends in .heic).")

    @Argument(help: "The still: JPEG or HEIC.") var still: String
    @Argument(help: "The movie: QuickTime (.mov) or MP4.") var movie: String
    @Option(name: .shortAndLong, help: "The Motion Photo to write (.jpg, or .heic for a HEIC with the video in an mpvd box).") var output: String
    @Flag(help: "Replace output files that already exist (by default an output never replaces a file).") var overwrite = false

    func run() throws {
        let summary: MotionPhotoExporter.Summary
        do {
            try ExistingOutput.refuse([URL(fileURLWithPath: output)], overwrite: overwrite)
            summary = try MotionPhotoExporter.export(still: URL(fileURLWithPath: still), movie: URL(fileURLWithPath: movie),
                                                     to: URL(fileURLWithPath: output), replacing: overwrite)
        } catch let error as MotionPhotoError {
            throw CLIError(error.description)
        } catch let error as FileAccessError {
            throw CLIError(error.description)
        }
        let moment = summary.presentationTime.map { String(format: ", still at %.3f s", $0) } ?? ""
        print("\(output): \(summary.bytes / 1024) KB, MP4 video \(summary.videoBytes / 1024) KB\(moment)"
              + (summary.contentIdentifier.map { ", content identifier \($0)" } ?? ""))
    }
}
