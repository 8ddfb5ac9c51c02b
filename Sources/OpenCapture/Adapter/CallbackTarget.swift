/// Carries a delegate to the queue its callbacks run on. Apple's delegates are not `Sendable`;
/// the contract is that the output calls them on the queue it owns (or the one the app gave),
/// one callback at a time, which is what every user of this box does.
///
/// `@unchecked Sendable`: its only stored property is an immutable `let`.
final class CallbackTarget<Delegate>: @unchecked Sendable {
    let value: Delegate
    init(_ value: Delegate) { self.value = value }
}
