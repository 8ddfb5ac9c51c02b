/// A `setPreparedPhotoSettingsArray` completion handler, carried across queues.
final class PreparationHandler: @unchecked Sendable {
    private let handler: (Bool, Error?) -> Void
    init(_ handler: @escaping (Bool, Error?) -> Void) { self.handler = handler }
    func call(_ prepared: Bool, _ error: Error?) { handler(prepared, error) }
}
