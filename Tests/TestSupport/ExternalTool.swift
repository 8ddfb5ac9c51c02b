import Foundation

/// A command-line program the tests compare OpenCapture against (exiftool, dcraw_emu, heif-info …),
/// found on `PATH` once per process.
///
/// A test that needs a tool is skipped, not passed, when the tool is missing:
///
/// ```swift
/// @Test(.enabled(if: ExternalTool.exiftool.isInstalled, "exiftool not installed"))
/// func exiftoolReadsOurTags() throws {
///     let result = try ExternalTool.exiftool.run(["-j", "-G1"], file: jpegData, fileExtension: "jpg")
///     #expect(result.status == 0)
/// }
/// ```
public struct ExternalTool: Sendable, CustomStringConvertible {
    /// The program's name as typed in a shell, e.g. `"dcraw_emu"`.
    public let name: String
    /// Absolute path of the executable, or nil when it is not installed.
    public let path: String?

    /// Looks `name` up on `PATH` (then in /usr/local/bin, /usr/bin and /bin).
    public init(_ name: String) {
        self.name = name
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = searchPath.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin"]
        path = folders.lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A program at a known path (nil when it is not there), e.g. a binary this package builds.
    public init(name: String, at url: URL?) {
        self.name = name
        path = url.map(\.path).flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    }

    /// Whether the program was found; use it in `.enabled(if:)`.
    public var isInstalled: Bool { path != nil }

    public var description: String { path ?? "\(name) (not installed)" }

    /// What a finished run printed and returned.
    public struct Result: Sendable {
        /// The exit status (the signal number for a program killed by a signal).
        public let status: Int32
        /// Everything written to standard output.
        public let standardOutput: Data
        /// Everything written to standard error.
        public let standardError: Data
        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorOutput: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Why a program could not be run.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the program with `arguments` to completion (standard input empty) and returns its output.
    /// Throws when the program is not installed or cannot be started; a non-zero exit is returned, not thrown.
    public func run(_ arguments: [String], in folder: URL? = nil) throws -> Result {
        guard let path else { throw Failure(description: "\(name) is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.standardInput = FileHandle.nullDevice
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw Failure(description: "\(name) could not start: \(error)")
        }
        // Read standard error on another thread so neither pipe can fill and block the program.
        let errorData = ErrorCollector()
        let reader = Thread { errorData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderrData = errorData.wait()
        return Result(status: process.terminationStatus, standardOutput: outData, standardError: stderrData)
    }

    /// Writes `data` to a temporary file named `*.fileExtension`, runs the program with `arguments`
    /// followed by that file's path, and removes the file.
    public func run(_ arguments: [String], file data: Data, fileExtension: String) throws -> Result {
        let folder = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("input.\(fileExtension)")
        try data.write(to: url)
        return try run(arguments + [url.path])
    }

    /// A new empty folder under the system's temporary directory; the caller removes it.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("opencapture-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// ExifTool (libimage-exiftool-perl): reads and validates EXIF, XMP, ICC and maker data.
    public static let exiftool = ExternalTool("exiftool")
    /// LibRaw's `dcraw_emu` (libraw-bin): develops raw and DNG files.
    public static let dcrawEmu = ExternalTool("dcraw_emu")
    /// LibRaw's `raw-identify` (libraw-bin): prints what LibRaw reads from a raw file.
    public static let rawIdentify = ExternalTool("raw-identify")
    /// libheif's `heif-info` (libheif-examples): prints a HEIF file's items and properties.
    public static let heifInfo = ExternalTool("heif-info")
    /// libheif's `heif-enc` (libheif-examples): encodes HEIC files.
    public static let heifEnc = ExternalTool("heif-enc")
    /// FFmpeg's stream prober (Debian's `ffmpeg`).
    public static let ffprobe = ExternalTool("ffprobe")
    /// FFmpeg's command-line tool (Debian's `ffmpeg`): makes movies with other muxers' and encoders' choices.
    public static let ffmpeg = ExternalTool("ffmpeg")
}

/// Holds the standard-error bytes the reader thread collects until `run` takes them.
/// `@unchecked Sendable`: `condition` (an NSCondition) guards `data` and `done`.
private final class ErrorCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var done = false

    func set(_ value: Data) {
        condition.lock(); data = value; done = true; condition.signal(); condition.unlock()
    }

    func wait() -> Data {
        condition.lock(); defer { condition.unlock() }
        while !done { condition.wait() }
        return data
    }
}
