import Glibc
import WorkoutCore

/// The daemon's edges that a host chooses: workoutd passes the real ones (the defaults), a test
/// that embeds the daemon passes a `ManualClock`, a poller that fails, a disk that fills up.
/// The product holds no test hooks of its own: what a test needs to fake is a port here.
public struct DaemonPorts {
    /// Every clock read of the shell (`LoopClock`): the system's clocks, or a test's `ManualClock`.
    public var clock: any LoopClock
    /// epoll_wait(2) (`EventLoop.wait`), or a stand-in that fails.
    public var poller: EventLoop.Poller
    /// The workoutd binary hooks are started through (`HookTrampoline`); nil: hooks are started
    /// directly (a host that is not workoutd).
    public var hookTrampoline: String?
    /// Where stderr log lines go (2; a test's pipe).
    public var logFD: Int32
    /// The file system's faults, asked by every save (`StoreFaults`): none in the product.
    var storeFaults: StoreFaults
    /// The waits between tries of the network GPS sources (`FeedSelection.Backoff`: 0.2 s to
    /// the next source, 1, 2, 4 ... 30 s after a whole round).
    var feedBackoff: FeedSelection.Backoff
    /// The waits between a sensor's attempts after failures (`SensorConnection.Backoff`: 1, 2, 4
    /// ... 30 s).
    var sensorBackoff: SensorConnection.Backoff
    /// Seconds an export's reader may take nothing before the export ends (30).
    var exportStallSeconds: Double
    /// The web server's time and connection limits.
    var webLimits: WebThread.Limits
    /// The port the web pages take when the config asks for the default one: the config's (8765)
    /// when nil; a test daemon takes any free port (0), so that many run at once.
    var webDefaultPort: UInt16?

    public init(clock: any LoopClock = SystemClock(), poller: @escaping EventLoop.Poller = EventLoop.wait,
                hookTrampoline: String? = nil, logFD: Int32 = 2) {
        self.clock = clock
        self.poller = poller
        self.hookTrampoline = hookTrampoline
        self.logFD = logFD
        storeFaults = StoreFaults()
        feedBackoff = FeedSelection.Backoff()
        sensorBackoff = SensorConnection.Backoff()
        exportStallSeconds = 30
        webLimits = WebThread.Limits()
        webDefaultPort = nil
    }
}

/// What the disk does to a save besides storing it: nothing in the product. A test makes saves
/// fail as on a full disk (`failure`), or holds a save with its temporary file written and not yet
/// renamed (`beforeRename`, where a crash would leave it), or holds `list` and `show` before they
/// read (`beforeRead`: a slow disk). Each runs on the thread doing the work, never the loop's.
struct StoreFaults: Sendable {
    var failure: (@Sendable () -> SystemError?)? = nil
    var beforeRename: (@Sendable () -> Void)? = nil
    var beforeRead: (@Sendable () -> Void)? = nil
}
