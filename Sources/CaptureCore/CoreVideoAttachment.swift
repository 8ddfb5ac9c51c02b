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
    package static let matrixITUR2020 = "ITU_R_2020"
    package static let matrixSMPTE240M = "SMPTE_240M_1995"

    /// Tags `buffer` with the colour space of its pixels (primaries and the sRGB transfer curve both colour spaces
    /// use). A Y′CbCr buffer's matrix is tagged where it is converted (`tag(_:matrix:)`), with the matrix used.
    package static func tag(_ buffer: PixelBuffer, colorSpace: ColorSpace) {
        buffer.attachments[colorPrimaries] = colorSpace == .displayP3 ? primariesP3D65 : primariesITUR709
        buffer.attachments[transferFunction] = transferSRGB
    }

    /// Tags a Y′CbCr `buffer` with the matrix its samples were converted with.
    package static func tag(_ buffer: PixelBuffer, matrix: YCbCrMatrix) {
        buffer.attachments[yCbCrMatrix] = name(of: matrix)
    }

    /// The attachment value naming `matrix` (`kCVImageBufferYCbCrMatrix_…`).
    package static func name(of matrix: YCbCrMatrix) -> String {
        switch matrix {
        case .bt601: return matrixITUR601
        case .bt709: return matrixITUR709
        case .bt2020: return matrixITUR2020
        case .smpte240M: return matrixSMPTE240M
        }
    }

    /// The matrix `buffer`'s attachment names, if it names one.
    package static func matrix(of buffer: PixelBuffer) -> YCbCrMatrix? {
        guard let value = buffer.attachments[yCbCrMatrix] else { return nil }
        return YCbCrMatrix.allCases.first { name(of: $0) == value }
    }
}
