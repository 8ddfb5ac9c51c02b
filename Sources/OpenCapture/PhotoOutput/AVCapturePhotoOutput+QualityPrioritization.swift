extension AVCapturePhotoOutput {
    /// How much processing time a photo may take (Apple's `QualityPrioritization`).
    public enum QualityPrioritization: Int, Comparable, Sendable {
        case speed = 1, balanced = 2, quality = 3

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }
}
