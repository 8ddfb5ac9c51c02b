/// Integer pixel dimensions.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)×\(height)" }

    /// The largest size with this aspect ratio that fits inside `box`, never larger than self;
    /// each side at least 1 (0×0 stays 0×0).
    public func fitted(within box: Size) -> Size {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return .zero }
        let scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height), 1)
        return Size(width: max(1, Int((Double(width) * scale).rounded())),
                    height: max(1, Int((Double(height) * scale).rounded())))
    }
}
