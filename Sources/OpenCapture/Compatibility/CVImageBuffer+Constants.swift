import CaptureCore

/// The colour attachment keys and the values OpenCapture's buffers carry (CoreVideo's `kCVImageBuffer…` names).
public let kCVImageBufferColorPrimariesKey = CoreVideoAttachment.colorPrimaries
public let kCVImageBufferTransferFunctionKey = CoreVideoAttachment.transferFunction
public let kCVImageBufferYCbCrMatrixKey = CoreVideoAttachment.yCbCrMatrix
public let kCVImageBufferColorPrimaries_P3_D65 = CoreVideoAttachment.primariesP3D65
public let kCVImageBufferColorPrimaries_ITU_R_709_2 = CoreVideoAttachment.primariesITUR709
public let kCVImageBufferTransferFunction_sRGB = CoreVideoAttachment.transferSRGB
public let kCVImageBufferYCbCrMatrix_ITU_R_601_4 = CoreVideoAttachment.matrixITUR601
public let kCVImageBufferYCbCrMatrix_ITU_R_709_2 = CoreVideoAttachment.matrixITUR709
