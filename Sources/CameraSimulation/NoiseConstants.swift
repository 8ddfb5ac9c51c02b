/// Per-frame constants of the noise kernel, in Float for the hot loop.
struct NoiseConstants {
    var time: Float
    var darkMean: Float
    var fullWell: Float
    var prnu: Float
    var dsnu: Float
    var read: Float
    var dnPerElectron: Float
    var black: Float
    var white: Float
    var flashGain: Float
}
