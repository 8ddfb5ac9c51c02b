import ArgumentParser
import Depth
import Foundation
import OpenCapture

/// `opencapture portrait`: synthetic depth of field from a photo that carries depth.
struct PortraitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portrait",
        abstract: "Render a shallow depth of field from a JPEG or HEIC photo with embedded depth.")

    @Argument(help: "A JPEG or HEIC photo with depth (e.g. from `opencapture shoot --device dual --depth`).") var photo: String
    @Option(help: "f-number of the simulated full-frame lens (0.95 or more).") var aperture: Double = 2.8
    @Option(help: "Focus distance in metres, 0.05 or more (default: the subject at the centre).") var focusDistance: Double?
    @Option(name: .shortAndLong, help: "Output JPEG.") var output: String
    @Flag(help: "Replace output files that already exist (by default an output never replaces a file).") var overwrite = false

    func validate() throws {
        // The renderer's own limits, checked before the photo is read: its refusal came after, under the photo's name.
        guard aperture.isFinite, aperture >= PortraitRenderer.widestAperture else {
            throw CLIError("--aperture \(aperture) must be an f-number of at least \(PortraitRenderer.widestAperture)")
        }
        if let focusDistance, !(focusDistance.isFinite && focusDistance >= PortraitRenderer.nearestFocus) {
            throw CLIError("--focus-distance \(focusDistance) must be at least \(PortraitRenderer.nearestFocus) m")
        }
        let suffix = URL(fileURLWithPath: output).pathExtension.lowercased()
        guard suffix == "jpg" || suffix == "jpeg" else {
            throw CLIError("portrait writes a JPEG (with the photo's EXIF and ICC profile): name the output .jpg, not '\(output)'")
        }
    }

    func run() throws {
        let destination = URL(fileURLWithPath: output)
        try AtomicFile.checkDestination(destination)
        try ExistingOutput.refuse([destination], overwrite: overwrite)
        if AtomicFile.isSameFile(URL(fileURLWithPath: photo), destination) {
            throw CLIError("\(destination.path) is the photo itself; choose another output name")
        }
        let data: Data
        do { data = try AtomicFile.read(URL(fileURLWithPath: photo)) } catch {
            throw CLIError("cannot read \(photo): \(FileAccessError.reason(for: error))")
        }
        var rendering = PortraitRendering()
        rendering.aperture = aperture
        rendering.focusDistance = focusDistance
        let jpeg: Data
        do { jpeg = try rendering.render(photo: data) } catch { throw CLIError("\(photo): \(error)") }
        try AtomicFile.write(jpeg, to: destination, replacing: overwrite)
        print("wrote \(output) (f/\(aperture)\(focusDistance.map { ", focused at \($0) m" } ?? ""))")
    }
}
