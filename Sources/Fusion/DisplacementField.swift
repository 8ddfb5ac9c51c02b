import CaptureCore

/// Where each pixel of the reference is found in another frame: image(x + dx, y + dy) ≈ reference(x, y),
/// in full-resolution pixels, one vector per tile, bilinear between tile centres (internal to alignment).
struct DisplacementField {
    var dx: TileGrid
    var dy: TileGrid

    /// The displacement at pixel (x, y).
    func at(x: Double, y: Double) -> (dx: Double, dy: Double) {
        (Double(dx.value(x: x, y: y)), Double(dy.value(x: x, y: y)))
    }
}
