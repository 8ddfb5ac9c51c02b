
extension RawImage {
    /// The code at or above which a sample counts as clipped: 98 % of the way from the lowest black level to the
    /// white level (a sample clipped at full well still gets read noise, so clipped samples spread a little below the
    /// white level, and a few percent below it the mean is already pulled down).
    package var clipCode: UInt16 {
        let black = blackLevel.filter(\.isFinite).min() ?? 0
        return UInt16(clamping: Int((black + 0.98 * (Float(whiteLevel) - black)).rounded(.down)))
    }
}
