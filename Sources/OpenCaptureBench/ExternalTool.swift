import Foundation

/// The comparison programs benchmarks run beside OpenCapture (enfuse, dcraw_emu, heif-enc, python3).
enum ExternalTool {
    /// The program's path on PATH, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a program to completion: exit status, standard output, wall-clock seconds.
    static func run(_ program: String, _ arguments: [String]) -> (status: Int32, output: String, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        do { try process.run() } catch { return (-1, "", 0) }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), seconds)
    }

    /// Runs a program and throws when it fails.
    static func runChecked(_ program: String, _ arguments: [String]) throws {
        let status = run(program, arguments).status
        guard status == 0 else { throw ExternalToolError(description: "\(program) exited with status \(status)") }
    }
}

/// A comparison program that failed.
struct ExternalToolError: Error, CustomStringConvertible {
    let description: String
}
