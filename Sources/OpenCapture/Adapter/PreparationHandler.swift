/// A `setPreparedPhotoSettingsArray` completion handler, carried across queues.
///
/// `@unchecked Sendable`: the handler is an immutable `let`, called once on the output's serial queue.
final class PreparationHandler: @unchecked Sendable {
    private let handler: (Bool, Error?) -> Void
    init(_ handler: @escaping (Bool, Error?) -> Void) { self.handler = handler }
    func call(_ prepared: Bool, _ error: Error?) { handler(prepared, error) }
}
