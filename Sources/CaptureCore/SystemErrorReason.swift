import Foundation

/// A POSIX error number as a short lower-case reason ("no space left on device", "the disk is read-only"): the one
/// wording for every file error OpenCapture reports, whichever layer met it.
public enum SystemErrorReason {
    public static func text(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file or folder"
        case ENOTDIR: return "a file is in the way where a folder should be"
        case EISDIR: return "it is a folder"
        case EACCES, EPERM: return "permission denied"
        case ENOSPC: return "no space left on device"
        case EROFS: return "the disk is read-only"
        case EDQUOT: return "disk quota exceeded"
        case EFBIG: return "the file is too large"
        case ENAMETOOLONG: return "the name is too long"
        case EIO: return "input/output error"
        case EEXIST: return "a file is already there"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
