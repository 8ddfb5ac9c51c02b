/// How the two missing colours of each Bayer photosite are reconstructed.
public enum DemosaicMethod: String, Sendable, CaseIterable {
    /// Averages of the nearest same-colour neighbours.
    case bilinear
    /// Malvar, He & Cutler (2004): bilinear plus a gradient correction from the other channels (5×5 linear filters).
    case malvarHeCutler
    /// Edge-directed: green by Hamilton-Adams horizontal and vertical estimates blended by inverse
    /// squared local gradients, then red and blue by bilinear interpolation of colour differences.
    case edgeDirected
    /// The default: green by gradient-weighted one-sided colour differences (GBTF-style), red and
    /// blue by residual interpolation guided by green. Best on natural images (Kodak24, McMaster18).
    case residualInterpolation
}
