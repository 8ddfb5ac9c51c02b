import CaptureCore
import Foundation

// CoreVideo's attachment functions over `PixelBuffer.attachments`. Apple's keys are CFStrings and its values CF
// types; here keys are `String`s and values strings (NSString), and every attachment propagates. Photo and stream
// buffers carry their colour space (`kCVImageBufferColorPrimariesKey`, `kCVImageBufferTransferFunctionKey`, and
// `kCVImageBufferYCbCrMatrixKey` for Y′CbCr), a RAW buffer its `BlackLevel` and `WhiteLevel`.

/// The buffer's attachments of `attachmentMode` (all of them for `.shouldPropagate`, none for
/// `.shouldNotPropagate`); nil when there are none.
public func CVBufferCopyAttachments(_ buffer: CVBuffer, _ attachmentMode: CVAttachmentMode) -> CFDictionary? {
    let attachments = buffer.attachments
    guard attachmentMode == .shouldPropagate, !attachments.isEmpty else { return nil }
    return NSDictionary(dictionary: attachments)
}

/// One attachment's value (an `NSString`), or nil; `attachmentMode`, when given, is set to its mode.
public func CVBufferCopyAttachment(_ buffer: CVBuffer, _ key: String,
                                   _ attachmentMode: UnsafeMutablePointer<CVAttachmentMode>?) -> AnyObject? {
    guard let value = buffer.attachments[key] else { return nil }
    attachmentMode?.pointee = .shouldPropagate
    return NSString(string: value)
}

/// Whether the buffer has an attachment for `key`.
public func CVBufferHasAttachment(_ buffer: CVBuffer, _ key: String) -> Bool {
    buffer.attachments[key] != nil
}

/// Sets an attachment. Values are kept as text: a string as is, a number by its description; `attachmentMode` is
/// not kept (every attachment propagates).
public func CVBufferSetAttachment(_ buffer: CVBuffer, _ key: String, _ value: AnyObject, _ attachmentMode: CVAttachmentMode) {
    buffer.attachments[key] = (value as? String) ?? (value as? NSString).map { String($0) } ?? "\(value)"
}

/// Removes one attachment.
public func CVBufferRemoveAttachment(_ buffer: CVBuffer, _ key: String) {
    buffer.attachments[key] = nil
}

/// Removes every attachment.
public func CVBufferRemoveAllAttachments(_ buffer: CVBuffer) {
    buffer.attachments = [:]
}
