/// Which demosaicing algorithm a `RawDeveloper` uses (OpenCapture addition; mirrors the pipeline's own).
public enum RawDemosaicMethod: String, Sendable, CaseIterable {
    /// Averages of the nearest same-colour neighbours: fastest, softest.
    case bilinear
    /// Malvar, He & Cutler (2004) gradient-corrected linear filters: fast, a little soft.
    case malvarHeCutler
    /// Hamilton-Adams edge-directed green and colour-difference red/blue.
    case edgeDirected
    /// Gradient-weighted green and residual-interpolated red and blue: the default, the most faithful.
    case residualInterpolation
}
