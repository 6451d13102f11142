/// The daemon's configuration (`$XDG_CONFIG_HOME/workoutd/config.json`). Every key is optional;
/// an absent file means these defaults. `config.example.json` and docs/config.md list every key.
public struct Config: Sendable, Equatable {
    /// GPS sources in failover order. `$XDG_RUNTIME_DIR` in a path is expanded by the shell.
    public var feeds: [FeedConfig] = [.gpsd(host: "127.0.0.1", port: 2947), .socket(path: "$XDG_RUNTIME_DIR/workoutd/feed.sock")]
    /// Activity started by `toggle` when no workout was recorded since start-up.
    public var defaultActivity: ActivityType = .running
    /// Seconds between journal flushes (fsync) of accepted fixes. At most 1.
    public var journalFlushSeconds: Double = 1
    /// Seconds between status lines in the log during a workout (0 = none).
    public var statusLogSeconds: Double = 60
    /// Resume a restored workout automatically instead of leaving it paused.
    public var autoResumeAfterRestore: Bool = false
    /// IANA time zone for streak days ("Europe/Berlin"); nil = $TZ or /etc/localtime.
    public var timeZone: String? = nil
    /// Optional body weight for calories.
    public var weightKg: Double? = nil
    /// Split and display units.
    public var units: Units = .metric
    public var metrics = MetricsConfig()
    public var streaks = StreakConfig()
    public var log = LogConfig()
    public var limits = LimitsConfig()
    /// Bluetooth LE sensors read while a workout records (`SensorConfig`).
    public var sensors: [SensorConfig] = []
    /// Functional threshold power (W) for power zones, intensity factor and training stress;
    /// nil = none.
    public var ftpWatts: Double? = nil
    /// Threshold heart rate (bpm) and threshold running pace (s per km) for training stress
    /// without power; nil = none.
    public var thresholdHeartRate: Int? = nil
    public var thresholdPaceSecondsPerKm: Double? = nil
    /// Age in years and sex, for heart-rate calories (Keytel) and the estimated maximum heart rate.
    public var age: Int? = nil
    public var sex: Sex? = nil
    /// Heart-rate zones.
    public var heartRate = HeartRateConfig()
    /// The logind lock on sleep held while a workout records (docs/dbus.md).
    public var sleepInhibitor: SleepInhibitMode = .block
    /// Habits with their own targets and streaks (docs/streaks.md).
    public var habits: [Habit] = []
    /// Programs run on log events (docs/config.md, "Hooks").
    public var hooks: [HookConfig] = []
    public var notifications = NotificationsConfig()
    /// Where saved workouts live (a folder a sync engine may share between machines). The
    /// shell expands `$XDG_DATA_HOME/workoutd` and `~/`. Read at start-up (Config+History.swift).
    public var historyDir = "$XDG_DATA_HOME/workoutd"
    /// Folders whose new GPX, TCX and FIT files are imported once each.
    public var importFolders: [String] = []
    /// The web pages (docs/web.md); nil = none.
    public var web: WebConfig? = WebConfig()

    public init() {}
}

/// Where the web pages are served (`web`): loopback by default; port 0 = any free port.
public struct WebConfig: Sendable, Equatable {
    public var host: String = "127.0.0.1"
    public var port: UInt16 = 8765
    /// Whose choice the address is: the default moves to a free port when 8765 is taken;
    /// a `web.listen` the user wrote does not (docs/web.md).
    public var origin: WebListenOrigin = .defaulted
    /// `web.tiles` with `web.tilesAttribution`: the base map under routes; nil (the default):
    /// none, and the pages fetch nothing from anywhere.
    public var tiles: TileLayer?

    public init(host: String = "127.0.0.1", port: UInt16 = 8765, origin: WebListenOrigin = .defaulted) {
        self.host = host; self.port = port; self.origin = origin
    }

    /// `127.0.0.1:8765`, `[::1]:0`.
    public var listen: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// "HOST:PORT" or "[V6]:PORT" with a port from 0 to 65535.
    public init?(listen s: String) {
        guard let colon = s.lastIndex(of: ":"), let port = UInt16(s[s.index(after: colon)...]) else { return nil }
        var host = String(s[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else { return nil }
        self.init(host: host, port: port, origin: .configured)
    }
}

/// Where the web pages' address came from.
public enum WebListenOrigin: Sendable, Equatable {
    /// No `web.listen`: 127.0.0.1:8765, or any free port when that one is taken.
    case defaulted
    /// `web.listen` in the configuration: that address or no pages (the failure is logged).
    case configured

    /// Whether a taken port may be replaced by a free one.
    public var fallsBackToFreePort: Bool {
        switch self {
        case .defaulted: return true
        case .configured: return false
        }
    }
}

public enum Units: String, Sendable, Equatable, CaseIterable {
    case metric
    case imperial
}

/// Fix-quality and auto-pause thresholds (see docs/metrics.md). nil = the activity's default.
public struct MetricsConfig: Sendable, Equatable {
    /// Minimum fix mode: 2 (2D) or 3 (3D).
    public var minFixMode: Int = 2
    /// Fixes with a horizontal error above this (metres) are rejected.
    public var maxHorizontalAccuracyMeters: Double = 50
    /// Consistent fixes needed before the first one is trusted.
    public var warmUpFixes: Int = 3
    /// A move longer than this between fixes starts a new segment instead of adding distance.
    public var jumpMeters: Double = 200
    /// Seconds without a fix before the signal counts as lost.
    public var signalLostSeconds: Double = 15
    /// Seconds below the activity's auto-pause speed before auto-pause; 0 = never auto-pause.
    public var autoPauseSeconds: Double = 10
    /// Automatic lap every this many metres; nil = manual laps only.
    public var autoLapMeters: Double? = nil
    public init() {}
}

/// Streak rules (see docs/streaks.md).
public struct StreakConfig: Sendable, Equatable {
    /// Minimum duration (seconds) for a workout to count towards streaks.
    public var minimumSeconds: Double = 600
    /// Workouts needed per week for the weekly streak.
    public var weeklyTarget: Int = 1
    /// First day of the week: "monday", "sunday" or "saturday".
    public var weekStart: String = "monday"
    /// Hours after midnight during which a workout still counts for the previous day (0-12).
    public var dayStartHour: Int = 0
    /// Rest days allowed per 7 days that keep the daily streak alive.
    public var restDaysPerWeek: Int = 0
    /// Local hour (0-23) of the "streak at risk" warning.
    public var reminderHour: Int = 18
    public init() {}
}

public struct LogConfig: Sendable, Equatable {
    /// Also write log lines to `$XDG_STATE_HOME/workoutd/workoutd.log`.
    public var file: Bool = false
    /// Rotate the log file when it exceeds this size.
    public var maxFileBytes: Int = 5_000_000
    /// Rotated files kept (workoutd.log.1 ... .N).
    public var keepFiles: Int = 3
    /// Least important level written: "error", "warning", "notice", "info", "debug".
    public var level: String = "info"
    public init() {}
}

/// Protection of the control and feed sockets.
public struct LimitsConfig: Sendable, Equatable {
    public var maxClients: Int = 64
    public var maxRequestBytes: Int = 65_536
    /// Seconds a client may stay silent mid-request or idle before it is disconnected.
    public var clientTimeoutSeconds: Double = 30
    public init() {}
}
