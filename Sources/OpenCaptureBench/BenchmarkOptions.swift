import Foundation

/// Command-line options of the benchmark executable.
struct BenchmarkOptions {
    var dataDirectory: String?
    var only: Set<String>?
    var repetitions = 5
    /// Captures in the soak benchmark (`--captures`), at least 10.
    var soakCaptures = 1_000
    /// Session preset for the soak and load groups (`--preset vga|hd720|photo`); nil = their defaults
    /// (VGA for the soak, 1280×720 for the load).
    var capturePreset: String?
    var showHelp = false

    init(arguments: [String]) {
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch argument {
            case "--data": dataDirectory = value; i += 1
            case "--only": only = Set((value ?? "").split(separator: ",").map(String.init)); i += 1
            case "--runs": repetitions = max(1, Int(value ?? "") ?? 5); i += 1
            case "--captures": soakCaptures = max(10, Int(value ?? "") ?? 1_000); i += 1
            case "--preset": capturePreset = value; i += 1
            default: showHelp = true
            }
            i += 1
        }
    }

    func runs(_ name: String) -> Bool { only?.contains(name) ?? true }

    /// Whether `--only` names this group (for the long soak, load and end-to-end groups, which a
    /// plain run leaves out).
    func named(_ name: String) -> Bool { only?.contains(name) ?? false }

    /// ../shared/data beside the checkout (found from this source file, so any working folder
    /// works), when present; `OPENCAPTURE_SHARED_DATA` overrides it.
    static func findSharedData() -> String? {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [ProcessInfo.processInfo.environment["OPENCAPTURE_SHARED_DATA"],
                          checkout.deletingLastPathComponent().appendingPathComponent("shared/data").path].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/demosaic") }
    }
}

/// Wall-clock seconds of `body`.
func measure<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try body()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// Prints one figure: `name: value unit    [anchor]`.
func report(_ name: String, _ value: Double, _ unit: String, format: String = "%.1f", anchor: String? = nil) {
    let text = "\(name): \(String(format: format, value)) \(unit)"
    print(anchor.map { text.padding(toLength: max(text.count, 52), withPad: " ", startingAt: 0) + "  [\($0)]" } ?? text)
    fflush(nil)   // each figure as it is made: print's buffer would lose them all to a failure later on
}
