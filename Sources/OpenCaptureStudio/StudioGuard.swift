import Foundation
import HTTPTypes
import Hummingbird

/// Every request passes here. Its `Host` must name this machine as a browser reaches it directly — on loopback
/// `localhost` or a loopback address; serving the network, also any IP address or this machine's own name — so a
/// foreign site whose name it points at the studio (DNS rebinding) is refused before it can read the page's token
/// or the library. State-changing requests (anything but GET and HEAD) must also carry the page's token in
/// `X-Studio-Token` and an `Origin` naming the studio itself (browsers send one with every such request) — so a
/// foreign page cannot forge them. `StudioError`s become JSON responses.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    /// The address the studio listens on (`StudioConfiguration.host`).
    let listeningHost: String
    static var tokenField: HTTPField.Name { HTTPField.Name("X-Studio-Token")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let authority = request.head.authority ?? ""
            guard StudioHost.allows(authority: authority, listeningOn: listeningHost) else {
                throw StudioError(status: 403, "unknown host name in the request (open the studio at http://localhost or its address)")
            }
            if request.method != .get && request.method != .head {
                guard request.headers[Self.tokenField] == token else { throw StudioError(status: 403, "missing or wrong studio token") }
                guard let origin = request.headers[.origin] else {
                    throw StudioError(status: 403, "the request has no Origin: changes come from the studio's page")
                }
                guard origin == "http://\(authority)" else { throw StudioError(status: 403, "cross-origin request refused") }
            }
            return try await next(request, context)
        } catch let error as StudioError {
            context.logger.notice("\(error.status) \(request.method) \(request.uri.path): \(error.reason)")
            return StudioServer.json(["error": error.reason], status: error.status)
        } catch let error as HTTPError {
            let reason = error.body ?? "\(error.status)"
            context.logger.notice("\(error.status.code) \(request.method) \(request.uri.path): \(reason)")
            return StudioServer.json(["error": reason], status: Int(error.status.code))
        }
    }
}
