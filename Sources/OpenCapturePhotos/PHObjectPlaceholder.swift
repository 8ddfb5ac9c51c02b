/// Stands for an object created in a change block (Apple's `PHObjectPlaceholder`); its identifier is the
/// asset's once the change has been saved.
public final class PHObjectPlaceholder: Sendable {
    public let localIdentifier: String
    init(localIdentifier: String) { self.localIdentifier = localIdentifier }
}
