/// Whether a buffer attachment is carried to buffers made from the buffer (CoreVideo's `CVAttachmentMode`).
public enum CVAttachmentMode: UInt32, Sendable {
    case shouldNotPropagate = 0
    case shouldPropagate = 1
}
