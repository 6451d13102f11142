import Glibc
import Synchronization
import WorkoutCore
import WorkoutSystem

/// The pages' secrets (docs/web.md, "Security"), random (32 bytes from /dev/urandom, base64url),
/// new at each start and never written to a file:
/// - the URL token `workoutctl open` gives: single-use, redeemed for one new session (then a
///   new token is issued for the next `open`);
/// - the sessions: the cookies' values, one per redeemed token (the latest `maxSessions`);
/// - the edit form's token, its own.
/// Issued on the daemon's loop (`urlToken`), redeemed and checked on the web thread.
final class WebKeys: Sendable {
    private struct State {
        var token: String
        var sessions: [String]
    }
    private let state: Mutex<State>
    let formToken: String
    /// Browsers (and profiles) let in at once; the oldest session ends beyond this.
    static let maxSessions = 16

    init() throws(SystemError) {
        state = Mutex(State(token: try WebKeys.random(), sessions: []))
        formToken = try WebKeys.random()
    }

    /// The token to put in the next URL (the same until it is redeemed).
    func urlToken() -> String { state.withLock { $0.token } }

    /// A new session for `given` when it is the issued token, which is then replaced; nil when
    /// it is not (or was redeemed already).
    func redeem(_ given: String) throws(SystemError) -> String? {
        let session = try WebKeys.random(), next = try WebKeys.random()
        return state.withLock { s -> String? in
            guard WebAccess.same(given, s.token) else { return nil }
            s.token = next
            s.sessions.append(session)
            if s.sessions.count > WebKeys.maxSessions { s.sessions.removeFirst() }
            return session
        }
    }

    /// Whether `value` (a cookie's) is a live session.
    func isSession(_ value: String) -> Bool {
        state.withLock { s in s.sessions.contains { WebAccess.same(value, $0) } }
    }

    /// 32 random bytes as base64url without padding (43 characters).
    static func random() throws(SystemError) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.last("open /dev/urandom") }
        defer { close(fd) }
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw SystemError("/dev/urandom gave \(got) bytes", code: EIO) }
            got += n
        }
        return String(Base64.encode(bytes).compactMap { c -> Character? in
            switch c {
            case "+": return "-"
            case "/": return "_"
            case "=": return nil
            default: return c
            }
        })
    }
}
