import WorkoutCore

/// What one run of workoutctl was asked to do: global options and one command.
public struct Invocation: Sendable, Equatable {
    /// `--socket PATH`: the control socket (default: `SocketPaths.current().control`).
    public var socketPath: String?
    /// `--json`: print the daemon's reply as JSON (without `ok`) for scripts.
    public var json = false
    public var command: ClientCommand

    public init(socketPath: String? = nil, json: Bool = false, command: ClientCommand) {
        self.socketPath = socketPath
        self.json = json
        self.command = command
    }
}

/// The commands of workoutctl. Most send one request and print one reply; `watch` and
/// `simulate` run until interrupted; `help` and `version` need no daemon.
public enum ClientCommand: Sendable, Equatable {
    /// One request, one reply (start, pause, resume, lap, marker, stop, toggle, status,
    /// activities, show, import, streak, reload, delete, undelete).
    case send(ControlRequest)
    /// `start ACTIVITY --plan FILE`: the plan file is read here and sent with the request.
    case startPlan(ActivityType, path: String)
    case list(ListOptions)
    case export(ExportOptions)
    /// `import PATH...`: files and folders, passed to the daemon as open descriptors.
    case importFiles(ImportOptions)
    case watch
    /// `watch --format waybar|i3bar`: one JSON line per change for a status bar.
    case statusBar(StatusBarFormat)
    case simulate(SimulateOptions)
    /// `open [ID] [--print]`: the web pages in the browser, or their URL printed.
    case open(WorkoutID?, print: Bool)
    /// `show ID --charts`: the workout, then its elevation, pace and heart rate as braille charts.
    case showCharts(WorkoutID)
    /// `--help` (nil: the global help) or `COMMAND --help` / `help COMMAND`.
    case help(String?)
    case version
}

/// `list [--from DATE] [--to DATE] [--activity A] [--limit N]`. Dates are sent as typed
/// (`YYYY-MM-DD` or an ISO-8601 time) after a syntax check: the daemon owns their meaning.
public struct ListOptions: Sendable, Equatable {
    public var from: String?
    public var to: String?
    public var activity: ActivityType?
    public var limit: Int?
    public init(from: String? = nil, to: String? = nil, activity: ActivityType? = nil, limit: Int? = nil) {
        self.from = from; self.to = to; self.activity = activity; self.limit = limit
    }
}

/// `export ID --format F [--output FILE]`; `output` is absolute after parsing.
public struct ExportOptions: Sendable, Equatable {
    public var id: WorkoutID
    public var format: ExportFormat
    public var output: String?
    public init(id: WorkoutID, format: ExportFormat, output: String? = nil) {
        self.id = id; self.format = format; self.output = output
    }
}

/// `simulate [FILE] [--speed X] [--loop] [--activity A] [--feed-socket PATH]`.
public struct SimulateOptions: Sendable, Equatable {
    /// The file to replay (absolute after parsing); nil = the built-in route.
    public var file: String?
    /// Time compression: 1 = real time, 10 = ten times faster, 0 = as fast as possible.
    public var speed: Double = 1
    /// Start again from the beginning at the end (times keep increasing).
    public var loop = false
    /// The built-in route's activity; nil = the current workout's (asked with `status`), else running.
    public var activity: ActivityType?
    /// The feed socket (default: `SocketPaths.current().feed`).
    public var feedSocket: String?
    /// `--hr`: heart rate sent with every fix (replacing the file's own); nil = the file's.
    public var heartRate: HeartRateProfile?
    public init(file: String? = nil, speed: Double = 1, loop: Bool = false, activity: ActivityType? = nil, feedSocket: String? = nil) {
        self.file = file; self.speed = speed; self.loop = loop; self.activity = activity; self.feedSocket = feedSocket
    }
}

extension ClientCommand {
    /// The request line sent to the daemon, or nil for commands handled otherwise.
    public var request: JSON? {
        switch self {
        case .send(let r): return r.encoded()
        case .watch, .statusBar: return ControlRequest.watch.encoded()
        case .export(let o): return ControlRequest.export(o.id, o.format).encoded()
        case .list(let o):
            var obj = JSONObject()
            obj["command"] = "list"
            if let f = o.from { obj["from"] = .string(f) }
            if let t = o.to { obj["to"] = .string(t) }
            if let a = o.activity { obj["activity"] = .string(a.rawValue) }
            if let l = o.limit { obj["limit"] = .int(l) }
            return .object(obj)
        case .open(let id, _): return ControlRequest.web(id).encoded()
        case .showCharts(let id): return ControlRequest.show(id).encoded()
        case .importFiles, .simulate, .help, .version, .startPlan: return nil
        }
    }
}
