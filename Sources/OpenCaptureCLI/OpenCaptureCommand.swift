import ArgumentParser
import Foundation

/// `opencapture`: capture photos with Apple's photo-capture API on the simulated camera.
@main
struct OpenCaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opencapture",
        abstract: "Apple's photo-capture API on Linux, with a physically simulated camera.",
        subcommands: [DemoCommand.self, ShootCommand.self, BracketCommand.self, FuseCommand.self, DevelopCommand.self,
                      InspectCommand.self, DevicesCommand.self, DepthCommand.self, PortraitCommand.self, LibraryCommand.self, StudioCommand.self,
                      LiveCommand.self, RecordCommand.self, ExportMotionPhotoCommand.self],
        defaultSubcommand: DemoCommand.self)

    /// Runs the command line (standard output line-buffered), with interrupts removing the temporary files of writes
    /// in flight (the studio server handles its own: SIGINT and SIGTERM shut it down cleanly, finishing what it writes).
    static func main() async {
        lineBufferStandardOutput()
        do {
            var command = try parseAsRoot()
            if !(command is StudioCommand) { InterruptCleanup.install() }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Progress lines reach a pipe or a log as they are printed, not when the buffer fills or the process ends (C's
    /// `stdout`, which `print` writes to, is fully buffered when it is no terminal). Swift 6 refuses to name that C
    /// global, so its address comes from the dynamic linker.
    private static func lineBufferStandardOutput() {
        guard let variable = dlsym(nil, "stdout") else { return }
        setvbuf(variable.load(as: UnsafeMutablePointer<FILE>.self), nil, _IOLBF, 0)
    }
}
