import CaptureCore
import Foundation

extension TIFFTagReader {
    /// Every directory a raw reader walks, in LibRaw's parse order: each directory of the main chain followed, depth
    /// first, by its SubIFDs (at most `limit` directories, nested at most four deep, none twice).
    public func allDirectories(limit: Int = 64) -> [Directory] {
        var result: [Directory] = [], seen: Set<Int> = []
        func walk(_ directory: Directory, depth: Int) {
            guard result.count < limit, seen.insert(directory.offset).inserted else { return }
            result.append(directory)
            guard depth < 4 else { return }
            for sub in subDirectories(of: directory) { walk(sub, depth: depth + 1) }
        }
        for directory in (try? mainDirectories()) ?? [] { walk(directory, depth: 0) }
        return result
    }

    /// Whether the file is a DNG: a directory carries DNGVersion (LibRaw looks in every one).
    public var isDNG: Bool { Self.isDNG(allDirectories()) }

    /// A DNG's raw image directory as LibRaw picks it: the first full-resolution (NewSubfileType 0) CFA or LinearRaw
    /// directory in parse order; nil when there is none. Its ActiveArea, DefaultCrop, black levels and opcodes are
    /// the ones that apply to the mosaic.
    public var dngRawDirectory: Directory? { Self.dngRawDirectory(among: allDirectories()) }

    /// `isDNG` of directories already walked (`allDirectories`).
    static func isDNG(_ directories: [Directory]) -> Bool { directories.contains { $0.contains(50706) } }

    /// `dngRawDirectory` among directories already walked (`allDirectories`).
    static func dngRawDirectory(among directories: [Directory]) -> Directory? {
        directories.first { ($0.integer(254) ?? 0) == 0 && [32803, 34892].contains($0.integer(262) ?? 0) }
    }
}

extension TIFFTagReader.Directory {
    /// The rectangle top, left, bottom, right of a raw directory's ActiveArea when it lies inside its image; nil when
    /// absent or not inside.
    var activeArea: [Int]? {
        guard let area = integers(50829), area.count == 4, let width = integer(256), let height = integer(257),
              0 <= area[0], area[0] < area[2], area[2] <= height, 0 <= area[1], area[1] < area[3], area[3] <= width
        else { return nil }
        return area
    }

    /// The size this raw directory's image is developed to: its DefaultCrop inside the ActiveArea (or the whole
    /// image), as `RawFileReader.dngDefaultCrop` applies it; nil without a known size.
    public var dngDevelopedSize: Size? {
        guard let width = integer(256), let height = integer(257), width > 0, height > 0 else { return nil }
        let visible = activeArea.map { Size(width: $0[3] - $0[1], height: $0[2] - $0[0]) } ?? Size(width: width, height: height)
        return RawFileReader.dngDefaultCrop(self, visible: visible).map { Size(width: $0.width, height: $0.height) } ?? visible
    }
}
