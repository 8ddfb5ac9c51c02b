import CaptureCore

/// How the processed photo is delivered.
package enum ProcessedDelivery: Sendable, Equatable {
    /// A JPEG file; quality 0…1.
    case jpeg(quality: Double)
    /// A HEIC file (HEVC tiles); quality 0…1.
    case hevc(quality: Double)
    /// A pixel buffer (and a TIFF file on demand).
    case uncompressed(pixelFormat: FourCC)
}

/// The RAW photo of each shot: a Bayer buffer and a DNG.
package struct RawDelivery: Sendable, Equatable {
    package var pixelFormat: FourCC
    /// Size of the DNG's preview (IFD0); nil = a small default preview.
    package var thumbnail: Size?

    package init(pixelFormat: FourCC, thumbnail: Size?) {
        self.pixelFormat = pixelFormat
        self.thumbnail = thumbnail
    }
}

/// A preview pixel buffer delivered with each photo.
package struct PreviewDelivery: Sendable, Equatable {
    package var pixelFormat: FourCC
    package var size: Size

    package init(pixelFormat: FourCC, size: Size) {
        self.pixelFormat = pixelFormat
        self.size = size
    }
}

/// Speed versus quality, in Apple's order.
package enum QualityPriority: Int, Sendable, Comparable {
    case speed = 1, balanced = 2, quality = 3
    package static func < (a: QualityPriority, b: QualityPriority) -> Bool { a.rawValue < b.rawValue }
}

/// The flash mode asked for.
package enum FlashPolicy: Sendable, Equatable {
    case off, on, auto
}

/// A bracketed request's shots.
package struct BracketRequest: Sendable, Equatable {
    package var shots: [BracketShot]
    /// Whether optical stabilisation stays on across the bracket.
    package var lensStabilization: Bool

    package init(shots: [BracketShot], lensStabilization: Bool) {
        self.shots = shots
        self.lensStabilization = lensStabilization
    }
}

/// One shot of a bracket; nil values mean "the device's current value".
package enum BracketShot: Sendable, Equatable {
    case autoExposure(bias: Double?)
    case manualExposure(duration: Double?, iso: Double?)
}

/// Whether optical stabilisation was used for a bracketed shot.
package enum LensStabilization: Sendable, Equatable {
    case unsupported, off, active
}

/// Depth delivered with each processed photo (Apple's `isDepthDataDeliveryEnabled` and friends).
package struct DepthDelivery: Sendable, Equatable {
    /// Disparity or depth, from the device's active depth format.
    package var kind: DepthMap.Kind
    /// The active depth format's pixel format ('hdis', 'fdis', 'hdep' or 'fdep').
    package var pixelFormat: FourCC
    /// The active depth format's size (768×576 on the dual camera, 640×480 on TrueDepth).
    package var size: Size
    /// Holes filled and edges smoothed; otherwise missing values are NaN.
    package var filtered: Bool
    /// Whether the HEIC/JPEG file carries the depth.
    package var embed: Bool
    /// Whether the photo carries the camera calibration.
    package var calibration: Bool
    /// The portrait effects matte, when asked for.
    package var matte: MatteDelivery?

    package init(kind: DepthMap.Kind, pixelFormat: FourCC, size: Size, filtered: Bool, embed: Bool, calibration: Bool,
                 matte: MatteDelivery?) {
        self.kind = kind
        self.pixelFormat = pixelFormat
        self.size = size
        self.filtered = filtered
        self.embed = embed
        self.calibration = calibration
        self.matte = matte
    }
}

/// A portrait effects matte delivered with each processed photo.
package struct MatteDelivery: Sendable, Equatable {
    /// Whether the HEIC/JPEG file carries the matte.
    package var embed: Bool

    package init(embed: Bool) { self.embed = embed }

    /// The matte's size for a photo: half the photo's width and height, as iPhones deliver it.
    package static func size(forPhoto size: Size) -> Size {
        Size(width: max(1, size.width / 2), height: max(1, size.height / 2))
    }
}
