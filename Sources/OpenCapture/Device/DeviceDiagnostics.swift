import Foundation
import CaptureCore

/// Where misuse that Apple turns into an exception is reported instead (OpenCapture never traps on
/// user input). Tests and apps can install a handler; the default writes one line to standard error.
public enum DeviceDiagnostics {
    private static let handler = Locked<(@Sendable (Error) -> Void)?>(nil)

    /// Installs a handler for reported misuse (nil restores the default).
    public static func setHandler(_ newHandler: (@Sendable (Error) -> Void)?) {
        handler.wrappedValue = newHandler
    }

    static func report(_ error: Error) {
        let current = handler.wrappedValue
        if let current { current(error) } else {
            FileHandle.standardError.write(Data("OpenCapture: \(error)\n".utf8))
        }
    }
}
