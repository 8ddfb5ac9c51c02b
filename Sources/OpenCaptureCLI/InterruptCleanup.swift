import CaptureCore
import Dispatch
import Foundation

/// What `opencapture` does when interrupted (Ctrl-C, `kill`, a closed terminal): the hidden temporary files of the
/// writes in flight are removed (`TemporaryFiles`), then the process ends by the same signal, as it would have.
enum InterruptCleanup {
    /// The dispatch sources, kept alive for the process's life.
    private static let sources = Locked<[any DispatchSourceSignal]>([])

    /// Installs the handling for SIGINT, SIGTERM and SIGHUP (once, before any work).
    static func install() {
        let queue = DispatchQueue(label: "OpenCapture.InterruptCleanup")
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // A dispatch source sees the signal only when its default action (ending the process) is off. A signal the
            // process was started ignoring (SIGINT of a shell's background job, SIGHUP under nohup) stays ignored.
            let previous = signal(number, SIG_IGN)
            guard unsafeBitCast(previous, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { continue }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                TemporaryFiles.removeAll()
                // Then end as the signal would have: its default action, unblocked on this thread (dispatch's threads
                // block signals).
                signal(number, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, number)
                pthread_sigmask(SIG_UNBLOCK, &set, nil)
                raise(number)
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }
}
