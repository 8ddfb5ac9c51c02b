/// The studio could not start: the port is taken, the address is not this machine's, the photo library or the
/// capture log cannot be used.
struct StudioStartError: Error, CustomStringConvertible {
    let description: String
}
