import Foundation

/// An OpenCapture error whose `localizedDescription` (what an app's alert shows) is its `description`, the message
/// that says what went wrong; without it Foundation says only "The operation could not be completed".
public protocol DescribedError: LocalizedError, CustomStringConvertible {}

extension DescribedError {
    public var errorDescription: String? { description }
}
