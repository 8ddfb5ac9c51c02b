/// One tap of a motion kernel.
struct ShakeTap: Sendable, Hashable {
    var dx: Int
    var dy: Int
    var weight: Float
}
