extension AVCaptureDevice {
    /// How the device white-balances (Apple's `AVCaptureDevice.WhiteBalanceMode`, same raw values).
    public enum WhiteBalanceMode: Int, Sendable {
        /// The gains stay as they are (`deviceWhiteBalanceGains`).
        case locked = 0
        /// White balance is found once, then the device reports `.locked`.
        case autoWhiteBalance = 1
        /// White balance follows the scene (the default).
        case continuousAutoWhiteBalance = 2
    }
}
