import CaptureCore
import Foundation

/// A file or folder OpenCapture's tools could not read or write, in one plain sentence
/// (OpenCapture addition): Foundation's `NSCocoaErrorDomain` and POSIX errors are mapped to a reason
/// such as "no such file", "the folder does not exist" or "no space left on device".
public struct FileAccessError: DescribedError, Equatable, Sendable {
    /// What was being done.
    public enum Operation: String, Sendable {
        case read, write
        case createFolder = "create folder"
    }

    public let operation: Operation
    public let path: String
    /// Why, as a short lower-case sentence.
    public let reason: String

    public init(_ operation: Operation, path: String, reason: String) {
        self.operation = operation
        self.path = path
        self.reason = reason
    }

    /// Maps a Foundation or POSIX error about `path` to a plain reason.
    public init(_ operation: Operation, path: String, error: Error) {
        self.init(operation, path: path, reason: Self.reason(for: error))
    }

    /// Maps a POSIX `errno` about `path` to a plain reason.
    public init(_ operation: Operation, path: String, errno code: Int32) {
        self.init(operation, path: path, reason: Self.reason(errno: code))
    }

    public var description: String { "cannot \(operation.rawValue) \(path): \(reason)" }

    /// The reason of a write that would have replaced a file and did not (see `AtomicFile.write(_:replacing:)`).
    public static let nameTaken = SystemErrorReason.text(errno: EEXIST)

    /// Whether a write failed only because a file already had its name.
    public var isNameTaken: Bool { operation == .write && reason == Self.nameTaken }

    /// A plain reason for a Foundation, POSIX or other error.
    public static func reason(for error: Error) -> String {
        if let access = error as? FileAccessError { return access.reason }
        if let posix = error as? POSIXError { return reason(errno: posix.code.rawValue) }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return reason(errno: Int32(ns.code)) }
        if ns.domain == NSCocoaErrorDomain {
            switch ns.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
            case NSFileWriteOutOfSpaceError: return "no space left on device"
            case NSFileWriteVolumeReadOnlyError: return "the disk is read-only"
            case NSFileWriteFileExistsError: return nameTaken
            case NSFileReadTooLargeError: return "the file is too large to read"
            default: break
            }
        }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return reason(errno: Int32(underlying.code))
        }
        if ns.domain == NSCocoaErrorDomain {
            return ns.code >= NSFileWriteUnknownError ? "the file could not be written" : "the file could not be read"
        }
        return "\(error)"
    }

    /// A plain reason for a POSIX error number.
    public static func reason(errno code: Int32) -> String { SystemErrorReason.text(errno: code) }
}
