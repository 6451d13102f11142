/// The usage text of every command: one table so that `--help`, usage errors and
/// docs/workoutctl.md say the same thing.
public struct CommandHelp: Sendable {
    public let name: String
    public let synopsis: String
    public let summary: String
    public let details: String

    public static let all: [CommandHelp] = [
        CommandHelp(name: "start", synopsis: "start ACTIVITY [--plan FILE]", summary: "start a workout",
                    details: "ACTIVITY is an activity name as listed by `workoutctl activities` (running, walking, cycling, ...). --plan FILE follows a structured workout: a Zwift .zwo, a FIT workout file or a JSON plan (docs/plans.md); a bad plan is refused before anything starts."),
        CommandHelp(name: "pause", synopsis: "pause", summary: "pause the workout", details: ""),
        CommandHelp(name: "resume", synopsis: "resume", summary: "resume a paused workout", details: ""),
        CommandHelp(name: "lap", synopsis: "lap", summary: "start a new lap", details: "With a plan, a lap press ends the plan's step, like `next`."),
        CommandHelp(name: "next", synopsis: "next", summary: "end the plan's current step now and begin the next one",
                    details: "Only while a workout follows a plan (start ACTIVITY --plan FILE); the step's lap closes."),
        CommandHelp(name: "marker", synopsis: "marker [TEXT]", summary: "mark this moment, with an optional note",
                    details: "Several words are joined with spaces. Use `--` before a text starting with '-'."),
        CommandHelp(name: "stop", synopsis: "stop", summary: "end the workout and print its summary",
                    details: "The workout is saved in the background; `status` shows a save that failed."),
        CommandHelp(name: "toggle", synopsis: "toggle", summary: "do the primary action for the current state",
                    details: "Starts the last activity when idle, stops an active workout, ... (`status` shows which)."),
        CommandHelp(name: "status", synopsis: "status", summary: "show the current state", details: ""),
        CommandHelp(name: "watch", synopsis: "watch [--format text|waybar|i3bar]", summary: "show live status until interrupted (Ctrl-C)",
                    details: "On a terminal the block is redrawn in place; piped, one line per update (with --json: one JSON object per line). --format waybar or i3bar prints one JSON line per change for a status bar: the workout in progress, or when idle the habits due today."),
        CommandHelp(name: "activities", synopsis: "activities", summary: "list every activity type with its properties", details: ""),
        CommandHelp(name: "list", synopsis: "list [--from DATE] [--to DATE] [--activity ACTIVITY] [--limit N]", summary: "list saved workouts",
                    details: "DATE is YYYY-MM-DD (or an ISO-8601 time). --limit N shows at most N workouts."),
        CommandHelp(name: "show", synopsis: "show ID [--charts]", summary: "show one saved workout with its laps, splits and events",
                    details: "ID as printed by `workoutctl list`, or `last` for the newest (any command taking an ID takes `last`). --charts also draws elevation, pace or speed and heart rate (and power, cadence) as rows of braille characters."),
        CommandHelp(name: "open", synopsis: "open [ID] [--print]", summary: "open the web pages (the history, or one workout) in the browser",
                    details: "The URL carries the token that lets your browser in (it then keeps a cookie). --print prints the URL instead of starting the browser (xdg-open); with --json: {\"url\": URL}."),
        CommandHelp(name: "export", synopsis: "export ID --format gpx|tcx|json|fit [--output FILE]", summary: "export a saved workout",
                    details: "Writes to FILE (atomically: a temporary file renamed into place) or to standard output."),
        CommandHelp(name: "import", synopsis: "import PATH... [--activity ACTIVITY]", summary: "import GPX, TCX, FIT or NMEA files and folders into history",
                    details: """
                    Folders are read recursively (GPX, TCX, FIT, NMEA files, gzipped or not; other entries are skipped with
                    a word). A folder with Strava's activities.csv gives each file its title and activity. The activity
                    comes from --activity, else the CSV, else the file, else the track's speeds (said in a warning),
                    else the configured defaultActivity (running). Shows progress on a terminal; Ctrl-C
                    stops after the current file and keeps what was imported. Exits 1 if any file failed.
                    """),
        CommandHelp(name: "edit", synopsis: "edit ID [--activity ACTIVITY] [--title TEXT] [--notes TEXT] [--gear NAME] [--effort 1-10] [--records off|on]",
                    summary: "change a saved workout's activity, title, notes, gear, perceived effort or whether it counts in records",
                    details: """
                    With --activity, its distance, speeds, calories and best efforts are recomputed from the recorded fixes.
                    --title, --notes and --gear name and describe it (shown in list, show and the exports; `totals` adds up
                    the distance per gear); --effort is the perceived effort from 1 (very easy) to 10 (maximal). An empty
                    value ("") clears a field. --records off keeps the workout out of records and personal bests (a ride
                    recorded as a run, a GPS that went wrong; shown in show and on its page); --records on counts it again.
                    """),
        CommandHelp(name: "recompute", synopsis: "recompute ID [--set metrics.KEY=VALUE]... [--save]",
                    summary: "recompute a saved workout with changed metrics settings; show before and after",
                    details: """
                    The workout's recorded fixes and events are measured again with the daemon's metrics settings, changed
                    by each --set (any key of the configuration's "metrics" object, e.g. metrics.autoPauseSeconds=0 to turn
                    auto-pause off, metrics.jumpMeters=500, metrics.autoLapMeters=null). Distance, moving time, pauses,
                    climb and splits are shown before and after. Nothing changes unless --save is given.
                    """),
        CommandHelp(name: "streak", synopsis: "streak", summary: "show daily and weekly streaks and each habit", details: ""),
        CommandHelp(name: "totals", synopsis: "totals [--week|--month|--year] [--activity ACTIVITY]",
                    summary: "count, distance, moving time and climb of this and the previous period",
                    details: "Periods are local (the streak rules' zone, day-start hour and week start); default --week."),
        CommandHelp(name: "fitness", synopsis: "fitness [--from DATE] [--to DATE]",
                    summary: "training load, fitness, fatigue and form per day",
                    details: """
                    DATE is YYYY-MM-DD (local days); default the 90 days up to today. Load is the day's training stress
                    (from power against ftpWatts, else heart rate against thresholdHeartRate, else a run's pace against
                    thresholdPaceSecondsPerKm); fitness and fatigue are its 42-day and 7-day exponentially weighted
                    averages, form is fitness minus fatigue (docs/metrics.md, "Fitness, fatigue and form").
                    """),
        CommandHelp(name: "power-curve", synopsis: "power-curve [--activity ACTIVITY] [--from DATE] [--to DATE]",
                    summary: "best mean power from 1 s to 5 h, critical power, W' and estimated FTP",
                    details: """
                    Over the workouts with power that started from --from through --to (local days YYYY-MM-DD; default all
                    time), of ACTIVITY only when given: for each duration the best mean power and the workout it comes from.
                    Critical power and W' are the two-parameter model fitted to the efforts of 2 to 20 min; eFTP is its
                    power for 60 min (docs/metrics.md, "Power curve"). The first request measures each power workout once.
                    """),
        CommandHelp(name: "records", synopsis: "records [--activity ACTIVITY]",
                    summary: "best times over standard distances and best powers, per activity",
                    details: "Per activity, the fastest 400 m, 1 km, mile, 5 km, 10 km, half marathon and marathon and the best mean power over 5 s, 1, 5, 20 and 60 min, each with its workout and date (the records of the /records page)."),
        CommandHelp(name: "simulate", synopsis: "simulate [FILE] [--speed X] [--loop] [--activity ACTIVITY] [--hr BPM|LOW-HIGH] [--feed-socket PATH]",
                    summary: "feed a GPX track, an NMEA log, JSON fix lines or a built-in route into the feed socket",
                    details: """
                    FILE is replayed paced by its own timestamps divided by X (default 1; 0 = as fast as possible).
                    Without FILE a built-in 1 Hz loop is generated for the current workout's activity (or --activity,
                    else running). --loop repeats forever with times still increasing. Stops at Ctrl-C or when the
                    daemon closes the feed socket. --feed-socket defaults to $XDG_RUNTIME_DIR/workoutd/feed.sock.
                    A GPX or TCX file's own heart rate is sent as HR lines; --hr 140 (constant) or --hr 100-160 (a
                    ramp up and down over 10 minutes) sends that instead, at most once a second, with any file or route.
                    """),
        CommandHelp(name: "reload", synopsis: "reload", summary: "make the daemon re-read its configuration", details: ""),
        CommandHelp(name: "delete", synopsis: "delete ID", summary: "delete a saved workout (undo with undelete)", details: ""),
        CommandHelp(name: "undelete", synopsis: "undelete ID", summary: "restore a deleted workout", details: ""),
    ]

    public static func named(_ name: String) -> CommandHelp? { all.first { $0.name == name } }

    /// The options the synopsis names (`--charts`, `--format`, ...), in order: what the man
    /// page and the completion must offer for this command (CommandDocsTests).
    public var options: [String] {
        var out: [String] = []
        for word in synopsis.split(whereSeparator: { " []|=".contains($0) }) where word.hasPrefix("--") {
            let option = String(word.prefix { $0 == "-" || $0.isLetter || $0.isNumber })
            if option.count > 2, !out.contains(option) { out.append(option) }
        }
        return out
    }
}

public enum HelpText {
    public static let version = "0.1.0"
    /// The options every command takes (`global` lists them).
    public static let globalOptions = ["--socket", "--json", "--help", "--version"]

    public static var global: String {
        var s = """
        Usage: workoutctl [--socket PATH] [--json] COMMAND [ARGS...]

        Controls workoutd, the workout-tracking daemon.

        Options:
          --socket PATH   the daemon's control socket
                          (default $XDG_RUNTIME_DIR/workoutd/control.sock, or /tmp/workoutd-$UID/control.sock)
          --json          print the daemon's reply as JSON, for scripts
          -h, --help      this help; `workoutctl COMMAND --help` for one command
          --version       print the version

        Commands:

        """
        let width = CommandHelp.all.map(\.name.count).max() ?? 0
        for c in CommandHelp.all {
            s += "  " + c.name + String(repeating: " ", count: width - c.name.count + 2) + c.summary + "\n"
        }
        s += """

        Exit status: 0 done, 1 refused by the daemon or failed, 2 usage error, 69 daemon not reachable.

        """
        return s
    }

    public static func command(_ c: CommandHelp) -> String {
        var s = "Usage: workoutctl [--socket PATH] [--json] \(c.synopsis)\n\n\(capitalized(c.summary)).\n"
        if !c.details.isEmpty { s += "\n" + c.details + "\n" }
        return s
    }

    static func capitalized(_ s: String) -> String {
        guard let f = s.first else { return s }
        return f.uppercased() + s.dropFirst()
    }
}
