import Foundation
import Testing
@testable import CaptureCore

/// `SystemErrorReason`: one wording for file errors, named for the common ones, the system's (lower-cased) otherwise.
@Suite struct SystemErrorReasonTests {
    @Test func commonErrorsHavePlainReasons() {
        #expect(SystemErrorReason.text(errno: ENOSPC) == "no space left on device")
        #expect(SystemErrorReason.text(errno: EROFS) == "the disk is read-only")
        #expect(SystemErrorReason.text(errno: EACCES) == "permission denied")
        #expect(SystemErrorReason.text(errno: EBADF) == String(cString: strerror(EBADF)).lowercased())
    }
}
