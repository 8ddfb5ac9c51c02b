import Foundation

/// This process's memory as Linux reports it in /proc/self/status.
enum ResidentMemory {
    /// Resident set size now (VmRSS), in MB; nil where /proc is absent.
    static var current: Double? { field("VmRSS") }

    /// Peak resident set size (VmHWM), in MB.
    static var peak: Double? { field("VmHWM") }

    /// Resets the peak to the current resident size (writes 5 to /proc/self/clear_refs); false
    /// when the kernel refuses.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// Resident size after returning the C heap's free pages to the system (glibc `malloc_trim(0)`),
    /// MB. Unlike raw RSS it leaves out freed memory the allocator keeps, so steady growth here means
    /// memory still referenced (a leak), not allocator slack.
    static var currentAfterTrim: Double? {
        _ = openCaptureMallocTrim(0)
        return current
    }

    private static func field(_ name: String) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) }
            return kilobytes.map { $0 / 1024 }
        }
        return nil
    }
}

/// glibc's `int malloc_trim(size_t pad)` (malloc.h is not in the Glibc module); scalar arguments only.
@_silgen_name("malloc_trim")
private func openCaptureMallocTrim(_ pad: Int) -> Int32
