/// EXIF orientation values (ImageIO's `CGImagePropertyOrientation`), as photos record them.
public enum CGImagePropertyOrientation: UInt32, Sendable {
    case up = 1, upMirrored = 2, down = 3, downMirrored = 4, leftMirrored = 5, right = 6, rightMirrored = 7, left = 8
}
