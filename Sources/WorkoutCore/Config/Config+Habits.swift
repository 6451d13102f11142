/// Decoding of `habits`, `hooks` and `notifications` (docs/config.md, docs/streaks.md).
extension Config {
    /// Reads the habit, hook and notification keys of the top-level object. Called by
    /// `decode(json:)` after `streaks`, whose day-start hour a habit's window is checked against.
    mutating func decodeHabitKeys(_ r: inout KeyReader) throws(ConfigError) {
        if let list = try r.array("habits") {
            var out: [Habit] = []
            for (i, v) in list.enumerated() {
                let h = try Habit.decode(v, path: "habits[\(i)]", dayStartHour: streaks.dayStartHour)
                if out.contains(where: { $0.name == h.name }) {
                    throw ConfigError(key: "habits[\(i)].name", problem: "'\(h.name)' is used by an earlier habit; names must be unique")
                }
                out.append(h)
            }
            habits = out
        }
        if let list = try r.array("hooks") {
            var out: [HookConfig] = []
            for (i, v) in list.enumerated() {
                let path = "hooks[\(i)]"
                var k = try KeyReader(v, path: path)
                guard let on = try k.string("on"), !on.isEmpty else {
                    throw ConfigError(key: path + ".on", problem: "missing; a log event name such as \"workout.saved\", or \"*\"")
                }
                guard on == "*" || on.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }) else {
                    throw ConfigError(key: path + ".on", problem: "'\(on)' is not a log event name (like \"workout.saved\") or \"*\"")
                }
                guard let run = try k.array("run"), !run.isEmpty else {
                    throw ConfigError(key: path + ".run", problem: "missing; [PROGRAM, ARG, ...], e.g. [\"notify-send\", \"workoutd\"]")
                }
                var argv: [String] = []
                for (j, a) in run.enumerated() {
                    guard let s = a.stringValue else { throw ConfigError(key: "\(path).run[\(j)]", problem: "expected a string, got \(a.typeName)") }
                    guard !s.utf8.contains(0) else { throw ConfigError(key: "\(path).run[\(j)]", problem: "contains a NUL character") }
                    argv.append(s)
                }
                guard !argv[0].isEmpty else { throw ConfigError(key: path + ".run[0]", problem: "the program must not be empty") }
                let timeout = try k.number("timeoutSeconds", in: 0.1...86400) ?? 30
                try k.finish()
                out.append(HookConfig(on: on, run: argv, timeoutSeconds: timeout))
            }
            hooks = out
        }
        if var n = try r.object("notifications") {
            notifications.desktop = try n.bool("desktop") ?? notifications.desktop
            if let events = try n.array("events") {
                var names: [String] = []
                for (j, e) in events.enumerated() {
                    guard let s = e.stringValue, !s.isEmpty else {
                        throw ConfigError(key: "notifications.events[\(j)]", problem: "expected a log event name such as \"habit.at_risk\"")
                    }
                    names.append(s)
                }
                notifications.events = names
            }
            try n.finish()
        }
    }
}

extension Habit {
    static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// One habit object; every problem names its key (`habits[2].window.to`).
    static func decode(_ value: JSON, path: String, dayStartHour: Int) throws(ConfigError) -> Habit {
        var r = try KeyReader(value, path: path)
        guard let name = try r.string("name"), !name.allSatisfy({ $0 == " " || $0 == "\t" }) else {
            throw ConfigError(key: path + ".name", problem: "missing; every habit needs a name, e.g. \"run 3 times a week\"")
        }
        guard name.utf8.count <= 100, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ConfigError(key: path + ".name", problem: "must be at most 100 bytes without control characters")
        }
        var h = Habit(name: name)
        if let acts = try r.array("activities") {
            for (j, a) in acts.enumerated() {
                guard let s = a.stringValue, let t = ActivityType(userInput: s) else {
                    throw ConfigError(key: "\(path).activities[\(j)]", problem: "unknown activity \(a.stringValue.map { "'\($0)'" } ?? a.typeName) (see `workoutctl activities`)")
                }
                h.activities.insert(t)
            }
        }
        if let p = try r.string("per") {
            guard let per = HabitPeriod(rawValue: p) else {
                throw ConfigError(key: path + ".per", problem: "must be \"day\", \"week\" or \"month\", not '\(p)'")
            }
            h.per = per
        }
        let times = try r.int("times", in: 1...1000)
        let meters = try r.number("totalMeters", in: 1...100_000_000)
        let seconds = try r.number("totalSeconds", in: 1...100_000_000)
        switch (times, meters, seconds) {
        case (nil, nil, nil): h.target = .count(1)
        case (let n?, nil, nil): h.target = .count(n)
        case (nil, let m?, nil): h.target = .distance(meters: m)
        case (nil, nil, let s?): h.target = .duration(seconds: s)
        default:
            throw ConfigError(key: path, problem: "give one target: \"times\" (workouts), \"totalMeters\" or \"totalSeconds\" (summed over the period)")
        }
        h.minimumSeconds = try r.number("minimumSeconds", in: 0...86400) ?? 0
        h.minimumMeters = try r.number("minimumMeters", in: 0...10_000_000) ?? 0
        if let days = try r.array("weekdays") {
            for (j, d) in days.enumerated() {
                guard let s = d.stringValue, let k = weekdayNames.firstIndex(of: String(s.lowercased().prefix(3))),
                      s.count >= 3, weekdayFullNames[k].hasPrefix(s.lowercased()) else {
                    throw ConfigError(key: "\(path).weekdays[\(j)]", problem: "expected a weekday such as \"mon\" or \"sunday\", got \(d.stringValue.map { "'\($0)'" } ?? d.typeName)")
                }
                h.weekdays.insert(k)
            }
            if h.weekdays.isEmpty { throw ConfigError(key: path + ".weekdays", problem: "must name at least one weekday (leave it out for every day)") }
        }
        if var w = try r.object("window") {
            guard let f = try w.string("from") else { throw ConfigError(key: path + ".window.from", problem: "missing; a local time \"HH:MM\"") }
            guard let t = try w.string("to") else { throw ConfigError(key: path + ".window.to", problem: "missing; a local time \"HH:MM\"") }
            guard let from = minute(f) else { throw ConfigError(key: path + ".window.from", problem: "'\(f)' is not a time \"HH:MM\"") }
            guard let to = minute(t) else { throw ConfigError(key: path + ".window.to", problem: "'\(t)' is not a time \"HH:MM\" (\"24:00\" for midnight)") }
            try w.finish()
            let cal = HabitCalendar(zone: .utc, dayStartHour: dayStartHour)
            let fp = cal.position(ofWallMinute: from % 1440)
            let tp0 = cal.position(ofWallMinute: to % 1440)
            let tp = tp0 == 0 ? 1440 : tp0
            guard fp < tp else {
                throw ConfigError(key: path + ".window", problem: "\(f)-\(t) must start before it ends within one streak day (which starts at \(dayStartHour):00, streaks.dayStartHour)")
            }
            h.window = HabitWindow(fromMinute: from % 1440, toMinute: to % 1440)
        }
        if let s = try r.int("skips", in: 0...31) {
            let cap: Int
            switch h.per {
            case .day: cap = (h.weekdays.isEmpty ? 7 : h.weekdays.count) - 1
            case .week, .month: cap = h.per.maximumSkips
            }
            guard s <= cap else {
                throw ConfigError(key: path + ".skips", problem: "\(s) skips per \(h.per.skipBucket) would never break the streak; at most \(cap) for this habit")
            }
            h.skips = s
        }
        if let m = try r.string("remindAt") {
            guard let v = minute(m), v < 1440 else { throw ConfigError(key: path + ".remindAt", problem: "'\(m)' is not a local time \"HH:MM\"") }
            h.remindAtMinute = v
        }
        try r.finish()
        return h
    }

    static let weekdayFullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// "HH:MM" (00:00 ... 24:00) as minutes after midnight.
    static func minute(_ s: String) -> Int? {
        let b = Array(s.utf8)
        guard b.count == 5, b[2] == UInt8(ascii: ":"), b.enumerated().allSatisfy({ $0.offset == 2 || ($0.element >= 48 && $0.element <= 57) }) else { return nil }
        let h = Int(b[0] - 48) * 10 + Int(b[1] - 48), m = Int(b[3] - 48) * 10 + Int(b[4] - 48)
        guard m < 60, h < 24 || (h == 24 && m == 0) else { return nil }
        return h * 60 + m
    }
}

