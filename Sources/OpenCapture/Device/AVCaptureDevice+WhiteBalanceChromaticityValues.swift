extension AVCaptureDevice {
    /// A white point as CIE 1931 xy chromaticity (Apple's `AVCaptureDevice.WhiteBalanceChromaticityValues`).
    public struct WhiteBalanceChromaticityValues: Equatable, Sendable {
        public var x: Float
        public var y: Float

        public init() { self.init(x: 0, y: 0) }

        public init(x: Float, y: Float) {
            self.x = x
            self.y = y
        }
    }
}
