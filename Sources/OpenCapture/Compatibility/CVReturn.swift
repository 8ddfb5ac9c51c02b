// CoreVideo result codes from CVReturn.h.

/// A CoreVideo result code: `kCVReturnSuccess` (0) or a negative error.
public typealias CVReturn = Int32

/// The call succeeded.
public let kCVReturnSuccess: CVReturn = 0
/// First value of the CoreVideo error range (same as `kCVReturnError`).
public let kCVReturnFirst: CVReturn = -6660
/// An otherwise undefined error.
public let kCVReturnError: CVReturn = -6660
/// An argument was invalid, e.g. a plane index out of range.
public let kCVReturnInvalidArgument: CVReturn = -6661
/// Memory allocation failed.
public let kCVReturnAllocationFailed: CVReturn = -6662
/// The operation is not supported.
public let kCVReturnUnsupported: CVReturn = -6663
/// The pixel format is not supported for this operation.
public let kCVReturnInvalidPixelFormat: CVReturn = -6680
/// The width or height is not valid.
public let kCVReturnInvalidSize: CVReturn = -6681
/// The pixel buffer attributes are invalid.
public let kCVReturnInvalidPixelBufferAttributes: CVReturn = -6682
/// Last value of the CoreVideo error range.
public let kCVReturnLast: CVReturn = -6699
