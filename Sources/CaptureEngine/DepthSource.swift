import CameraSimulation

/// How a device measures depth with a photo.
package enum DepthSource: Sendable {
    /// Two lenses side by side (the dual camera): the photo camera is one eye and `secondary`,
    /// exposed at the same moment, is the other; depth comes from stereo matching (relative accuracy).
    case stereo(secondary: any FrameSource, module: CameraModule)
    /// A dot projector and an infrared camera (TrueDepth): depth from the pattern's shift (absolute accuracy).
    case structuredLight(TrueDepthRig)
}
