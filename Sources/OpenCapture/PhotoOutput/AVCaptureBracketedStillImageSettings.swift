import Foundation

/// Abstract settings of one shot in a bracket (Apple's `AVCaptureBracketedStillImageSettings`,
/// not constructible). Bracketed capture arrives with its concrete subclasses.
public class AVCaptureBracketedStillImageSettings: NSObject, @unchecked Sendable {
    override init() { super.init() }
}
