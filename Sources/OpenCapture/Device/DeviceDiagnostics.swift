import Foundation

/// Where misuse that Apple turns into an exception is reported instead (OpenCapture never traps on
/// user input). Tests and apps can install a handler; the default writes one line to standard error.
public enum DeviceDiagnostics {
    nonisolated(unsafe) private static var handler: (@Sendable (Error) -> Void)? = nil
    private static let lock = NSLock()

    /// Installs a handler for reported misuse (nil restores the default).
    public static func setHandler(_ newHandler: (@Sendable (Error) -> Void)?) {
        lock.lock(); handler = newHandler; lock.unlock()
    }

    static func report(_ error: Error) {
        lock.lock(); let current = handler; lock.unlock()
        if let current { current(error) } else {
            FileHandle.standardError.write(Data("OpenCapture: \(error)\n".utf8))
        }
    }
}
