import Foundation
import TestRequirements

/// Asks a daemon for `status` every 20 ms on a thread of its own and keeps every reply with the
/// time it came, so that an `async` test on the pool still sees a state that lasts only a second
/// or two (a first reading, a dropout's `lost`): its own task may resume late, the record does
/// not. Stops when dropped (or `stop()`).
final class StatusWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [(t: Double, status: [String: Any])] = []
    private var cursor = 0
    private var watching = true

    init(_ d: some DaemonUnderTest & Sendable) {
        Thread { [weak self] in
            var pace = Pace(every: 0.02)
            while let me = self, me.isWatching {
                if let s = try? d.request(#"{"command":"status"}"#) {
                    let now = Pace.now()
                    me.lock.withLock { me.statuses.append((now, s)) }
                }
                pace.next()
            }
        }.start()
    }

    private var isWatching: Bool { lock.withLock { watching } }

    func stop() { lock.withLock { watching = false } }

    deinit { stop() }

    /// The first status after the last one this returned that satisfies `condition` and came
    /// within `seconds` from now; else, after those seconds, the last status seen.
    func awaitFirst(seconds: Double, _ condition: ([String: Any]) -> Bool) async -> [String: Any] {
        let deadline = Pace.now() + seconds
        var found: [String: Any]?
        await waitUntil(seconds: seconds + 1) {
            lock.withLock {
                if let i = statuses[cursor...].firstIndex(where: { $0.t <= deadline && condition($0.status) }) {
                    cursor = i + 1
                    found = statuses[i].status
                }
                return found != nil || (statuses.last?.t ?? 0) > deadline
            }
        }
        return found ?? lock.withLock { statuses.last?.status ?? [:] }
    }
}
