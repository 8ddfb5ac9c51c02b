extension AVCaptureDevice {
    /// A white point as correlated colour temperature (kelvin) and tint (Apple's
    /// `AVCaptureDevice.WhiteBalanceTemperatureAndTintValues`). Tint is the distance from the Planckian locus in
    /// CIE 1960 uv × 3000, positive toward magenta (below the locus), negative toward green, as in Adobe's raw
    /// converters; Apple does not document its scale.
    public struct WhiteBalanceTemperatureAndTintValues: Equatable, Sendable {
        public var temperature: Float
        public var tint: Float

        public init() { self.init(temperature: 0, tint: 0) }

        public init(temperature: Float, tint: Float) {
            self.temperature = temperature
            self.tint = tint
        }
    }
}
