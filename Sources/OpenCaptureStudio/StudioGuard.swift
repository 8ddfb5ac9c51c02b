import Foundation
import HTTPTypes
import Hummingbird

/// Every request passes here: state-changing requests (anything but GET and HEAD) must carry the
/// page's token in `X-Studio-Token` and, when the browser sends an `Origin`, come from the studio's
/// own origin — so a foreign page cannot forge them; `StudioError`s become JSON responses.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    static var tokenField: HTTPField.Name { HTTPField.Name("X-Studio-Token")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            if request.method != .get && request.method != .head {
                if let origin = request.headers[.origin] {
                    let host = request.head.authority ?? ""
                    guard origin == "http://\(host)" else { throw StudioError(status: 403, "cross-origin request refused") }
                }
                guard request.headers[Self.tokenField] == token else { throw StudioError(status: 403, "missing or wrong studio token") }
            }
            return try await next(request, context)
        } catch let error as StudioError {
            return StudioServer.json(["error": error.reason], status: error.status)
        } catch let error as HTTPError {
            return StudioServer.json(["error": error.body ?? "\(error.status)"], status: Int(error.status.code))
        }
    }
}
