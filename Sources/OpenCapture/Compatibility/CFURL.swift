import Foundation

/// CoreFoundation's URL. corelibs Foundation on Linux has no `CFURL` Swift type, so it is `NSURL`,
/// to which `URL` bridges with `as`, letting `url as CFURL` compile unchanged.
public typealias CFURL = NSURL
