import Synchronization
import WorkoutClient

/// Collects what a command printed.
final class Capture: Sendable {
    private let out = Mutex("")
    private let err = Mutex("")
    let isTerminal: Bool
    init(isTerminal: Bool = false) { self.isTerminal = isTerminal }

    var console: Console {
        Console(out: { s in self.out.withLock { $0 += s } }, err: { s in self.err.withLock { $0 += s } }, isTerminal: isTerminal)
    }
    var stdout: String { out.withLock { $0 } }
    var stderr: String { err.withLock { $0 } }
}
