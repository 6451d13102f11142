import WorkoutCore

/// A command line workoutctl cannot run: the message and the command it concerns (for the hint).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var command: String?
    public init(_ message: String, command: String? = nil) { self.message = message; self.command = command }

    /// The text for stderr: the problem and where to read more.
    public var description: String {
        var s = "workoutctl: \(message)\n"
        if let command, let help = CommandHelp.named(command) {
            s += "Usage: workoutctl \(help.synopsis)\nTry 'workoutctl \(command) --help'.\n"
        } else {
            s += "Try 'workoutctl --help'.\n"
        }
        return s
    }
}

/// Parses workoutctl's arguments. Pure: the working directory (for making paths absolute) is an
/// input. Global options (`--socket`, `--json`) are accepted before or after the command.
public enum ArgumentParser {
    public static func parse(_ args: [String], cwd: String) -> Result<Invocation, UsageError> {
        do { return .success(try parseOrThrow(args, cwd: cwd)) } catch let e as UsageError { return .failure(e) } catch {
            return .failure(UsageError("\(error)"))
        }
    }

    static func parseOrThrow(_ args: [String], cwd: String) throws -> Invocation {
        var socket: String?
        var json = false
        var help = false
        var commandName: String?
        var rest: [String] = []
        var i = 0
        var afterDashDash = false
        while i < args.count {
            let a = args[i]
            i += 1
            if afterDashDash { rest.append(a); continue }
            if a == "--" {
                guard commandName != nil else { throw UsageError("'--' before the command") }
                afterDashDash = true
                rest.append(a)
                continue
            }
            if a == "--json" { json = true; continue }
            if a == "--socket" || a.hasPrefix("--socket=") {
                let v = try value(of: "--socket", a, args, &i, command: commandName)
                guard !v.isEmpty else { throw UsageError("--socket needs a path", command: commandName) }
                socket = absolute(v, cwd: cwd)
                continue
            }
            if a == "-h" || a == "--help" { help = true; continue }
            if a == "--version" || a == "-V" {
                if commandName == nil { return Invocation(command: .version) }
                rest.append(a); continue
            }
            if commandName == nil {
                if a.hasPrefix("-") { throw UsageError("unknown option '\(a)'") }
                commandName = a
            } else {
                rest.append(a)
            }
        }
        guard let name = commandName else {
            if help { return Invocation(socketPath: socket, json: json, command: .help(nil)) }
            throw UsageError("no command given")
        }
        if name == "help" {
            guard rest.count <= 1 else { throw UsageError("help takes at most one command name") }
            if let topic = rest.first, CommandHelp.named(topic) == nil { throw UsageError("unknown command '\(topic)'") }
            return Invocation(socketPath: socket, json: json, command: .help(rest.first))
        }
        guard CommandHelp.named(name) != nil else { throw UsageError("unknown command '\(name)'") }
        if help { return Invocation(socketPath: socket, json: json, command: .help(name)) }
        let command = try parseCommand(name, rest, cwd: cwd)
        return Invocation(socketPath: socket, json: json, command: command)
    }

    /// The value of `--opt VALUE` or `--opt=VALUE`.
    static func value(of option: String, _ arg: String, _ args: [String], _ i: inout Int, command: String?) throws -> String {
        if arg.hasPrefix(option + "=") { return String(arg.dropFirst(option.count + 1)) }
        guard i < args.count else { throw UsageError("\(option) needs a value", command: command) }
        defer { i += 1 }
        return args[i]
    }

    static func absolute(_ path: String, cwd: String) -> String {
        if path.hasPrefix("/") { return path }
        var base = cwd
        while base.hasSuffix("/"), base.count > 1 { base.removeLast() }
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        if p.isEmpty || p == "." { return base }
        return (base == "/" ? "" : base) + "/" + p
    }

    static func parseCommand(_ name: String, _ args: [String], cwd: String) throws -> ClientCommand {
        /// Splits `args` into positional arguments and `--option value` pairs of the allowed options.
        func split(_ valued: Set<String>, flags: Set<String> = []) throws -> (positional: [String], options: [(String, String)]) {
            var positional: [String] = []
            var options: [(String, String)] = []
            var i = 0
            var dashdash = false
            while i < args.count {
                let a = args[i]
                i += 1
                if dashdash { positional.append(a); continue }
                if a == "--" { dashdash = true; continue }
                if a.hasPrefix("-"), a.count > 1, !isNumber(a) {
                    let key = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
                    if flags.contains(key) {
                        guard key == a else { throw UsageError("\(key) takes no value", command: name) }
                        options.append((key, "")); continue
                    }
                    guard valued.contains(key) else { throw UsageError("unknown option '\(a)' for \(name)", command: name) }
                    options.append((key, try value(of: key, a, args, &i, command: name)))
                    continue
                }
                positional.append(a)
            }
            return (positional, options)
        }
        /// The options of a command that takes no positional arguments.
        func options(_ valued: Set<String>, flags: Set<String> = []) throws -> [(String, String)] {
            let (p, opts) = try split(valued, flags: flags)
            guard p.isEmpty else { throw UsageError("\(name) takes no arguments, got '\(p[0])'", command: name) }
            return opts
        }
        func noArguments() throws { _ = try options([]) }
        /// `value`, or a usage error saying `problem` when it is nil (an option's value did not parse).
        func parsed<T>(_ value: T?, or problem: @autoclosure () -> String) throws -> T {
            guard let value else { throw UsageError(problem(), command: name) }
            return value
        }
        func one(_ what: String, _ p: [String]) throws -> String {
            guard let first = p.first else { throw UsageError("\(name) needs \(what)", command: name) }
            guard p.count == 1 else { throw UsageError("\(name) takes one \(what), got \(p.count) arguments", command: name) }
            return first
        }
        func workoutID(_ p: [String]) throws -> WorkoutID {
            let s = try one("a workout ID", p)
            return try parsed(WorkoutID(rawValue: s), or: "'\(s)' is not a workout ID (see `workoutctl list`, or say `last`)")
        }
        func activity(_ s: String) throws -> ActivityType {
            try parsed(ActivityType(userInput: s), or: "unknown activity '\(s)'; `workoutctl activities` lists them")
        }
        func dayRange(_ opts: [(String, String)]) throws -> DayRange {
            var r = DayRange()
            for (k, v) in opts where k == "--from" || k == "--to" {
                let d = try parsed(StreakDay(iso: v), or: "\(k) needs a date YYYY-MM-DD, not '\(v)'")
                if k == "--from" { r.from = d } else { r.to = d }
            }
            if let f = r.from, let t = r.to, f > t { throw UsageError("--from \(f.iso) is after --to \(t.iso)", command: name) }
            return r
        }

        switch name {
        case "start":
            let (p, opts) = try split(["--plan"])
            let a = try activity(try one("an activity", p))
            guard let plan = opts.last?.1 else { return .send(.start(a)) }
            return .startPlan(a, path: absolute(plan, cwd: cwd))
        case "next": try noArguments(); return .send(.next)
        case "pause": try noArguments(); return .send(.pause)
        case "resume": try noArguments(); return .send(.resume)
        case "lap": try noArguments(); return .send(.lap)
        case "stop": try noArguments(); return .send(.stop)
        case "toggle": try noArguments(); return .send(.toggle)
        case "status": try noArguments(); return .send(.status)
        case "activities": try noArguments(); return .send(.activities)
        case "streak": try noArguments(); return .send(.streak)
        case "reload": try noArguments(); return .send(.reload)
        case "watch":
            guard let f = try options(["--format"]).last?.1 else { return .watch }
            if f == "text" { return .watch }
            return .statusBar(try parsed(StatusBarFormat(rawValue: f), or: "--format must be text, waybar or i3bar, not '\(f)'"))
        case "totals":
            let opts = try options(["--activity"], flags: ["--week", "--month", "--year"])
            var per = TotalsPeriod.week
            var a: ActivityType?
            for (k, v) in opts {
                switch k {
                case "--activity": a = try activity(v)
                default: per = TotalsPeriod(rawValue: String(k.dropFirst(2))) ?? .week
                }
            }
            return .send(.totals(per, a))
        case "fitness":
            return .send(.analytics(.fitness(try dayRange(try options(["--from", "--to"])))))
        case "power-curve":
            let opts = try options(["--from", "--to", "--activity"])
            let a = try opts.last { $0.0 == "--activity" }.map { try activity($0.1) }
            return .send(.analytics(.powerCurve(a, try dayRange(opts))))
        case "records":
            return .send(.analytics(.records(try options(["--activity"]).last.map { try activity($0.1) })))
        case "marker":
            let (p, _) = try split([])
            let text = p.joined(separator: " ")
            return .send(.marker(text.isEmpty ? nil : text))
        case "show":
            let (p, opts) = try split([], flags: ["--charts"])
            let id = try workoutID(p)
            return opts.isEmpty ? .send(.show(id)) : .showCharts(id)
        case "open":
            let (p, opts) = try split([], flags: ["--print"])
            guard p.count <= 1 else { throw UsageError("open takes at most one workout ID", command: name) }
            return .open(p.isEmpty ? nil : try workoutID(p), print: !opts.isEmpty)
        case "delete": return .send(.delete(try workoutID(try split([]).positional)))
        case "undelete": return .send(.undelete(try workoutID(try split([]).positional)))
        case "list":
            var o = ListOptions()
            for (k, v) in try options(["--from", "--to", "--activity", "--limit"]) {
                switch k {
                case "--from", "--to":
                    guard ISO8601.parse(v) != nil || ISO8601.parse(v + "T00:00:00Z") != nil else {
                        throw UsageError("\(k) needs a date YYYY-MM-DD, not '\(v)'", command: name)
                    }
                    if k == "--from" { o.from = v } else { o.to = v }
                case "--activity": o.activity = try activity(v)
                default:
                    guard let n = Int(v), n > 0 else { throw UsageError("--limit needs a positive whole number, not '\(v)'", command: name) }
                    o.limit = n
                }
            }
            return .list(o)
        case "export":
            let (p, opts) = try split(["--format", "--output"])
            let id = try workoutID(p)
            var format: ExportFormat?
            var output: String?
            for (k, v) in opts {
                if k == "--format" {
                    format = try parsed(ExportFormat(rawValue: v.lowercased()), or: "--format must be gpx, tcx or json, not '\(v)'")
                } else {
                    guard !v.isEmpty else { throw UsageError("--output needs a file name", command: name) }
                    output = v == "-" ? nil : absolute(v, cwd: cwd)
                }
            }
            guard let format else { throw UsageError("export needs --format gpx|tcx|json|fit", command: name) }
            return .export(ExportOptions(id: id, format: format, output: output))
        case "import":
            let (p, opts) = try split(["--activity"])
            guard !p.isEmpty else { throw UsageError("import needs at least one file or folder", command: name) }
            var a: ActivityType?
            for (_, v) in opts { a = try activity(v) }
            return .importFiles(ImportOptions(paths: p.map { absolute($0, cwd: cwd) }, activity: a))
        case "edit":
            let (p, opts) = try split(["--activity", "--title", "--notes", "--gear", "--effort", "--records"])
            let id = try workoutID(p)
            var edit = WorkoutEdit()
            for (k, v) in opts {
                let text: FieldEdit<String> = WorkoutAnnotation.cleaned(v).map { .set($0) } ?? .clear
                switch k {
                case "--activity": edit.activity = try activity(v)
                case "--title": edit.title = text
                case "--notes": edit.notes = text
                case "--gear": edit.gear = text
                case "--records":
                    edit.records = try parsed(RecordsInclusion(argument: v), or: "--records needs off (keep out of records and bests) or on, not '\(v)'")
                default:
                    if WorkoutAnnotation.cleaned(v) == nil || v == "none" { edit.effort = .clear; continue }
                    edit.effort = .set(try parsed(Int(v), or: "--effort needs a number 1-10 (or \"\" to clear), not '\(v)'"))
                }
            }
            if let problem = edit.problem { throw UsageError(problem, command: name) }
            guard !edit.isEmpty else {
                throw UsageError("edit needs at least one of --activity, --title, --notes, --gear, --effort, --records", command: name)
            }
            return .send(.edit(id, edit))
        case "recompute":
            let (p, opts) = try split(["--set"], flags: ["--save"])
            let id = try workoutID(p)
            var overrides: [MetricsOverride] = []
            var save = false
            for (k, v) in opts {
                guard k == "--set" else { save = true; continue }
                let o = try parsed(MetricsOverride(argument: v), or: "--set needs metrics.KEY=VALUE (e.g. metrics.autoPauseSeconds=0), not '\(v)'")
                guard o.key.hasPrefix("metrics."), o.key.count > "metrics.".count else {
                    throw UsageError("--set only changes metrics settings: metrics.KEY=VALUE, not '\(v)' (keys: docs/config.md)", command: name)
                }
                overrides.append(o)
            }
            return .send(.recompute(id, overrides, save: save))
        case "simulate":
            let (p, opts) = try split(["--speed", "--activity", "--feed-socket", "--hr"], flags: ["--loop"])
            guard p.count <= 1 else { throw UsageError("simulate takes at most one file", command: name) }
            var o = SimulateOptions(file: p.first.map { absolute($0, cwd: cwd) })
            for (k, v) in opts {
                switch k {
                case "--speed":
                    guard let x = Double(v), x.isFinite, x >= 0 else {
                        throw UsageError("--speed needs a number >= 0 (0 = as fast as possible), not '\(v)'", command: name)
                    }
                    o.speed = x
                case "--activity": o.activity = try activity(v)
                case "--loop": o.loop = true
                case "--hr":
                    o.heartRate = try parsed(HeartRateProfile(argument: v),
                                             or: "--hr needs a heart rate (140) or a range to ramp through (100-160), 30-240 bpm; not '\(v)'")
                default:
                    guard !v.isEmpty else { throw UsageError("--feed-socket needs a path", command: name) }
                    o.feedSocket = absolute(v, cwd: cwd)
                }
            }
            return .simulate(o)
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }

    static func isNumber(_ s: String) -> Bool { Double(s) != nil }
}
