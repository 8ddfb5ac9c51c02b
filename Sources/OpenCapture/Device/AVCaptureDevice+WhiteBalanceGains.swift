extension AVCaptureDevice {
    /// Per-channel gains applied to the sensor's red, green and blue before demosaicing (Apple's
    /// `AVCaptureDevice.WhiteBalanceGains`). Valid device gains are each within `1…maxWhiteBalanceGain`.
    public struct WhiteBalanceGains: Equatable, Sendable {
        public var redGain: Float
        public var greenGain: Float
        public var blueGain: Float

        public init() { self.init(redGain: 0, greenGain: 0, blueGain: 0) }

        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }
    }
}
