/// CoreVideo's buffer attachment keys and values, as the strings Apple's constants hold (the one place the names
/// live: the engine tags buffers with them, OpenCapture's `kCVImageBuffer…` constants are them).
package enum CoreVideoAttachment {
    package static let colorPrimaries = "CVImageBufferColorPrimaries"
    package static let transferFunction = "CVImageBufferTransferFunction"
    package static let yCbCrMatrix = "CVImageBufferYCbCrMatrix"
    package static let primariesP3D65 = "P3_D65"
    package static let primariesITUR709 = "ITU_R_709_2"
    package static let transferSRGB = "IEC_sRGB"
    package static let matrixITUR601 = "ITU_R_601_4"
    package static let matrixITUR709 = "ITU_R_709_2"

    /// Tags `buffer` with the colour space of its pixels (primaries and the sRGB transfer curve both colour spaces
    /// use) and, for Y′CbCr buffers, the BT.601 matrix `YCbCr420` converts with.
    package static func tag(_ buffer: PixelBuffer, colorSpace: ColorSpace) {
        buffer.attachments[colorPrimaries] = colorSpace == .displayP3 ? primariesP3D65 : primariesITUR709
        buffer.attachments[transferFunction] = transferSRGB
        if buffer.planes.count == 2 { buffer.attachments[yCbCrMatrix] = matrixITUR601 }
    }
}
