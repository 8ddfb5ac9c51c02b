/// The studio could not listen where it was asked to (the port is taken, or the address is not this machine's).
struct StudioListenError: Error, CustomStringConvertible {
    let description: String
}
