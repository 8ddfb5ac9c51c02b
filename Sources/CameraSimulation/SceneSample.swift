/// One ray's answer: ambient radiance (cd/m², linear sRGB), flash radiance per candela of a point
/// flash at the ray origin (luminance), and hit distance along the ray.
struct SceneSample {
    var radiance: SIMD3<Double>
    var flashLuminancePerCandela: Double
    var distance: Double
}
