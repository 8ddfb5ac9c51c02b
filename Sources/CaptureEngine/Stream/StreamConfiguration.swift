import CameraSimulation
import CaptureCore

/// What a frame stream renders: the camera, the video size and rate, and the device state it
/// exposes with. Read from the device when the session starts (or reconfigures).
package struct StreamConfiguration: Sendable {
    /// The device the frames come from (its frame source, module, exposure control, bias, seed, colour space).
    package var device: DeviceSnapshot
    /// Delivered frame size (4:2:0, so both sides even).
    package var size: Size
    /// Frames per second (the device's `activeVideoMinFrameDuration`).
    package var frameRate: Double
    /// Session clock origin (uptime, ns): frame times count from it, as photo timestamps do.
    package var clockOrigin: UInt64
    /// How much of the past the stream keeps, seconds (a Live Photo needs 1.5 s before the shutter).
    package var history: Double
    /// Pixel formats besides `420v` that subscribers want each frame in (`420f`, `BGRA`).
    package var extraPixelFormats: Set<FourCC>
    /// Whether each frame carries its sensor readout to subscribers (a depth data output measures depth from it).
    package var keepsReadout: Bool

    package init(device: DeviceSnapshot, size: Size, frameRate: Double, clockOrigin: UInt64, history: Double = 1.6,
                 extraPixelFormats: Set<FourCC> = [], keepsReadout: Bool = false) {
        self.keepsReadout = keepsReadout
        self.extraPixelFormats = extraPixelFormats.filter { $0 == "420f" || $0 == "BGRA" }
        self.device = device
        self.size = Size(width: max(2, size.width & ~1), height: max(2, size.height & ~1))
        self.frameRate = min(max(frameRate, 1), 240)
        self.clockOrigin = clockOrigin
        self.history = max(0, history)
    }

    /// The sensor readout behind a frame: the full sensor width binned/scaled to the frame's width,
    /// cropped to its height (the same geometry a photo of that size uses).
    package var readoutSize: Size { device.module.readoutSize(forPhoto: size) }

    /// Seconds between frames.
    package var frameInterval: Double { 1 / frameRate }
}
