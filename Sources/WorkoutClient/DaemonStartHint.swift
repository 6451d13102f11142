/// How to start the daemon, for the "not running" message: judged from where this workoutctl
/// runs. One built in a checkout (`ROOT/.build/...`) has no `workoutd` on PATH: it says
/// `swift run workoutd` in that checkout; an installed one says `workoutd` or systemd.
public enum DaemonStartHint: Sendable, Equatable {
    case checkout(root: String)
    case installed

    /// From this program's path (`/proc/self/exe`; nil when unknown: installed).
    public init(executable: String?) {
        let marker = Array("/.build/".utf8)
        if let path = executable {
            let bytes = Array(path.utf8)
            if bytes.count > marker.count, let at = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<$0 + marker.count].elementsEqual(marker) }) {
                self = .checkout(root: at == 0 ? "/" : String(decoding: bytes[..<at], as: UTF8.self))
                return
            }
        }
        self = .installed
    }

    /// The sentence that follows "cannot connect".
    public var sentence: String {
        switch self {
        case .checkout(let root):
            return "Is workoutd running? Start it from the checkout: `cd \(root) && swift run workoutd` (it stays in the foreground).\n"
        case .installed:
            return "Is workoutd running? Start it with `workoutd` (it stays in the foreground) or `systemctl --user start workoutd.socket`.\n"
        }
    }
}
