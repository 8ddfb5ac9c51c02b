import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of a program as a user meets it: from process start to exit, with the child's peak
/// resident memory from `wait4`'s rusage (what `/usr/bin/time -v` prints as "Maximum resident set size").
struct ChildProcess {
    /// Exit status (128 + signal for a killed process; -1 when it could not start).
    let status: Int32
    /// Wall-clock seconds from spawn to exit.
    let seconds: Double
    /// Peak resident set size of the child, MB.
    let peakMB: Double
    /// User + system CPU seconds of the child.
    let cpuSeconds: Double

    /// Spawns `program arguments…` with standard input from /dev/null, standard output to
    /// `standardOutput` (a file path, created or truncated) or /dev/null, standard error to `standardError` (likewise)
    /// or /dev/null, and waits for it.
    static func run(_ program: String, _ arguments: [String], standardOutput: String? = nil,
                    standardError: String? = nil) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let start = DispatchTime.now().uptimeNanoseconds
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else {
            return ChildProcess(status: -1, seconds: 0, peakMB: 0, cpuSeconds: 0)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let signal = status & 0x7F
        let exit = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        func secs(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return ChildProcess(status: exit, seconds: seconds, peakMB: Double(usage.ru_maxrss) / 1024,
                            cpuSeconds: secs(usage.ru_utime) + secs(usage.ru_stime))
    }
}
