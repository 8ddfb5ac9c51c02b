import CaptureCore

extension AVCaptureDevice {
    /// The size the running stream's frames have: the active format's video size, or for the photo-sized
    /// formats (wider than 1920) 1440 wide at the format's aspect ratio, as an iPhone's photo-mode preview.
    package var streamSize: Size {
        let size = activeFormat.dimensions
        guard size.width > 1920 else { return size }
        return Size(width: 1440, height: (1440 * size.height / max(1, size.width)) & ~1)
    }
}
