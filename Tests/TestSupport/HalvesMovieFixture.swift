import CaptureCore
import Foundation
import MediaFormats

/// A small movie made with `MovieWriter` whose first frame is red on its stored left half and blue on its right,
/// followed by grey frames: where red lands shows how a reader turned the frame.
public enum HalvesMovieFixture {
    /// A `width`×`height` RGB raster, its left half red and its right half blue.
    public static func halves(width: Int, height: Int) -> Raster<UInt8> {
        var image = Raster<UInt8>(width: width, height: height, channels: 3, repeating: 0)
        for y in 0..<height { for x in 0..<width { image[x, y, x < width / 2 ? 0 : 2] = 255 } }
        return image
    }

    /// Writes the movie to `url`: `frames` frames at 15 fps (the first red|blue, the rest grey 128), stored
    /// `width`×`height`, its display matrix turning it `rotation` degrees clockwise.
    public static func make(at url: URL, codec: MovieCodec = .h264, width: Int = 64, height: Int = 32, rotation: Int = 0,
                            frames: Int = 3) throws {
        var settings = MovieSettings(codec: codec, width: width, height: height, frameRate: 15)
        settings.preset = "ultrafast"
        settings.crf = 12
        settings.rotation = rotation
        let writer = try MovieWriter(url: url, settings: settings)
        let grey = Raster<UInt8>(width: width, height: height, channels: 3, repeating: 128)
        for index in 0..<frames {
            try writer.append(PixelBuffer.yCbCr420(from: index == 0 ? halves(width: width, height: height) : grey, fullRange: false,
                                                   matrix: settings.yCbCrMatrix)!,
                              at: Double(index) / 15)
        }
        try writer.finish()
    }
}
