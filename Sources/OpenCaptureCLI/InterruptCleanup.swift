import CaptureCore
import Dispatch
import Foundation

/// What `opencapture` does when interrupted (Ctrl-C, `kill`, a closed terminal): the hidden temporary files of the
/// writes in flight are removed (`TemporaryFiles`), then the folders the command made for its output and left empty
/// (`takeBack(_:)`), then the process ends by the same signal, as it would have.
enum InterruptCleanup {
    /// The dispatch sources, kept alive for the process's life.
    private static let sources = Locked<[any DispatchSourceSignal]>([])
    /// Chains of folders a command made for its output, each deepest first (`takeBack(_:)`).
    private static let madeFolders = Locked<[[URL]]>([])

    /// Has an interrupt remove `folders` (a command's missing output folder and ancestors, deepest first, made or about
    /// to be made) while they are empty, as the command does itself when nothing was written into them; `keep(_:)`
    /// undoes it. `develop` makes its folder before a TIFF is written band by band, so a Ctrl-C during the develop
    /// left an empty folder behind.
    static func takeBack(_ folders: [URL]) {
        guard !folders.isEmpty else { return }
        madeFolders.withLock { $0.append(folders) }
    }

    /// Stops `takeBack(_:)` of `folders`.
    static func keep(_ folders: [URL]) {
        madeFolders.withLock { chains in chains.removeAll { $0 == folders } }
    }

    /// Removes each registered chain's folders, deepest first, while they are empty.
    static func removeMadeFolders() {
        madeFolders.withLock { chains in
            for chain in chains { for folder in chain where rmdir(folder.path) != 0 { break } }
            chains.removeAll()
        }
    }

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
                removeMadeFolders()
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
