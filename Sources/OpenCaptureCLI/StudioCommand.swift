import ArgumentParser
import Foundation
import OpenCapture
import OpenCaptureStudio

/// `opencapture studio`: the browser camera app on loopback.
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "studio",
        abstract: "A camera app in your browser: shutter, modes, live capture timeline, and a gallery of the photo library.")

    @Option(help: "Address to listen on (loopback by default; give 0.0.0.0 to serve the network).") var host = "127.0.0.1"
    @Option(parsing: .unconditional, help: "Port (0 picks a free one).") var port = 8080
    @Option(help: "Photo library folder (default: the shared library).") var library: String?
    @Option(help: "Session preset of the camera: photo (12 MP), high (1080p), hd720, vga, medium, low.") var preset: PresetChoice = .photo

    func validate() throws {
        guard !host.isEmpty else { throw CLIError("--host: give an address, e.g. 127.0.0.1") }
        guard (0...65535).contains(port) else { throw CLIError("--port \(port) must be 0…65535") }
    }

    func run() async throws {
        var configuration = StudioConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.libraryURL = library.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.preset = preset.preset
        let server = StudioServer(configuration: configuration)
        let host = host
        try await server.run { port in
            print("OpenCapture Studio: http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/   (Ctrl-C stops it)")
        }
    }
}
