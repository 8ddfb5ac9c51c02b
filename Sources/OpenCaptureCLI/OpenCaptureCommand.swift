import ArgumentParser

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

    /// Runs the command line, with interrupts removing the temporary files of writes in flight (the studio server
    /// handles its own: SIGINT and SIGTERM shut it down cleanly, finishing what it writes).
    static func main() async {
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
}
