/// A request the studio refuses: an HTTP status and a reason, sent as JSON `{"error": reason}`.
struct StudioError: Error, CustomStringConvertible {
    let status: Int
    let reason: String
    init(status: Int, _ reason: String) { (self.status, self.reason) = (status, reason) }
    var description: String { reason }
}
