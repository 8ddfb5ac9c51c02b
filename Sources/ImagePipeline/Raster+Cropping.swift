import CaptureCore

extension Raster {
    /// The centre `height` rows (offset kept even so a Bayer pattern keeps its phase); self when
    /// `height` is not smaller.
    public func croppingRows(to height: Int) -> Raster {
        guard height < self.height, height > 0 else { return self }
        let top = ((self.height - height) / 2) & ~1
        let start = top * rowStride
        return Raster(width: width, height: height, channels: channels,
                      storage: Array(storage[start..<(start + height * rowStride)]))
    }
}

extension RawImage {
    /// The centre `height` rows of the mosaic, keeping the CFA phase.
    public func croppingRows(to height: Int) -> RawImage {
        var copy = self
        copy.bayer = bayer.croppingRows(to: height)
        if height < self.height, height > 0 {
            let top = ((self.height - height) / 2) & ~1
            copy.lensCorrection = lensCorrection?.cropped(x: 0, y: top, width: width, height: height)
        }
        return copy
    }
}
