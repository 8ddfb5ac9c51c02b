/// What a saved change did, as handed to change observers (Apple's `PHChange`).
///
/// Difference: `changeDetails(for:)` is not implemented yet; the identifiers of the assets the
/// change inserted are given instead (OpenCapture addition).
public final class PHChange: Sendable {
    /// Local identifiers of the assets the change created.
    public let insertedLocalIdentifiers: [String]
    init(inserted: [String]) { insertedLocalIdentifiers = inserted }
}
