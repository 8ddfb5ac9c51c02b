import Foundation

/// The host names the studio answers to (`StudioGuard` checks every request's `Host` with it).
enum StudioHost {
    /// Whether a request's `Host` (name or address, and port) names the studio: `localhost` or a loopback address
    /// always; when it listens beyond loopback, any IP address and this machine's host name too. Names under other
    /// domains are refused, whatever address they resolve to.
    static func allows(authority: String, listeningOn listeningHost: String) -> Bool {
        guard let name = hostName(of: authority) else { return false }
        if name == "localhost" || isLoopbackAddress(name) { return true }
        if isLoopbackAddress(listeningHost) || listeningHost.lowercased() == "localhost" { return false }
        if isIPAddress(name) { return true }
        let own = ProcessInfo.processInfo.hostName.lowercased()
        return !own.isEmpty && (name == own || name == own + ".local")
    }

    /// The host part of an authority (`name`, `name:port`, `[v6]` or `[v6]:port`), lower-cased without a trailing
    /// dot; nil when it is malformed.
    static func hostName(of authority: String) -> String? {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            host = host[...end]
        } else if let colon = host.firstIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isNumber) else { return nil }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }

    /// 127.0.0.0/8 or ::1 (bracketed or not).
    static func isLoopbackAddress(_ host: String) -> Bool {
        if let v4 = ipv4(host) { return v4 >> 24 == 127 }
        return ipv6(host) == [UInt8](repeating: 0, count: 15) + [1]
    }

    static func isIPAddress(_ host: String) -> Bool { ipv4(host) != nil || ipv6(host) != nil }

    private static func ipv4(_ host: String) -> UInt32? {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
        return UInt32(bigEndian: address.s_addr)
    }

    private static func ipv6(_ host: String) -> [UInt8]? {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var address = in6_addr()
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return nil }
        return withUnsafeBytes(of: address) { Array($0) }
    }
}
