import Foundation

/// The domain of the photo library's errors as `NSError` (Photos' `PHPhotosErrorDomain`).
public let PHPhotosErrorDomain = "PHPhotosErrorDomain"

/// Errors of the photo library, with the codes of Apple's `PHPhotosError.Code` where it has one; bridged to `NSError`
/// in `PHPhotosErrorDomain` with that code.
public struct PHPhotosError: CustomNSError, LocalizedError, Sendable, Equatable, CustomStringConvertible {
    /// The reason, so `localizedDescription` (what an alert shows) says what went wrong.
    public var errorDescription: String? { reason }

    public enum Code: Int, Sendable {
        case invalid = -1
        case userCancelled = 3072
        case identifierNotFound = 3201
        case changeNotSupported = 3300
        case operationInterrupted = 3301
        case invalidResource = 3302
        case missingResource = 3303
        case notEnoughSpace = 3305
        case requestNotSupportedForAsset = 3306
        case accessRestricted = 3310
        case accessUserDenied = 3311
    }

    public static let errorDomain = PHPhotosErrorDomain
    /// The code as `NSError` carries it (Apple's numbers: 3302 for an invalid resource…).
    public var errorCode: Int { code.rawValue }
    /// The reason as the bridged `NSError`'s `localizedDescription`.
    public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: reason] }

    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "PHPhotosError \(code.rawValue) (\(code)): \(reason)" }
}
