import Foundation

/// CoreFoundation's dictionary. corelibs Foundation on Linux has no `CFDictionary` Swift type,
/// so it is `NSDictionary`, to which a Swift dictionary bridges with `as`, letting
/// `attributes as CFDictionary` compile unchanged.
public typealias CFDictionary = NSDictionary
