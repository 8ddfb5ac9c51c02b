// Scalar type names from MacTypes.h that CoreVideo and AVFoundation signatures use.

/// A four-character code identifying a format (MacTypes.h `OSType`).
public typealias OSType = UInt32

/// A four-character code (MacTypes.h `FourCharCode`); the same as `OSType`.
public typealias FourCharCode = UInt32
