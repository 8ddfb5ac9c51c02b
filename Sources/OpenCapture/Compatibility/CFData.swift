import Foundation

/// CoreFoundation's data. corelibs Foundation on Linux has no `CFData` Swift type, so it is
/// `NSData`, to which `Data` bridges with `as`, letting `data as CFData` compile unchanged.
public typealias CFData = NSData
