/// Strict decoding: unknown keys and wrong types are errors naming the key, so a typo never
/// silently leaves a default in force.
extension Config {
    public static func decode(json text: String) throws(ConfigError) -> Config {
        let value: JSON
        do { value = try JSON.parse(text) } catch let e as JSONParseError {
            throw ConfigError(key: "", problem: "not valid JSON: \(e)")
        } catch { throw ConfigError(key: "", problem: "not valid JSON") }
        var r = try KeyReader(value, path: "")
        var c = Config()
        if let feeds = try r.array("feeds") {
            c.feeds = []
            for (i, f) in feeds.enumerated() { c.feeds.append(try FeedConfig.decode(f, path: "feeds[\(i)]")) }
        }
        if let a = try r.string("defaultActivity") {
            guard let t = ActivityType(userInput: a) else {
                throw ConfigError(key: "defaultActivity", problem: "unknown activity '\(a)' (see `workoutctl activities`)")
            }
            c.defaultActivity = t
        }
        c.journalFlushSeconds = try r.number("journalFlushSeconds", in: 0.05...1) ?? c.journalFlushSeconds
        c.statusLogSeconds = try r.number("statusLogSeconds", in: 0...86400) ?? c.statusLogSeconds
        c.autoResumeAfterRestore = try r.bool("autoResumeAfterRestore") ?? c.autoResumeAfterRestore
        c.timeZone = try r.string("timeZone") ?? c.timeZone
        if let tz = c.timeZone, tz.isEmpty || tz.contains("..") || tz.hasPrefix("/") {
            throw ConfigError(key: "timeZone", problem: "'\(tz)' is not an IANA zone name like Europe/Berlin")
        }
        c.weightKg = try r.number("weightKg", in: 20...400) ?? c.weightKg
        if let m = try r.string("sleepInhibitor") {
            guard let v = SleepInhibitMode(rawValue: m) else {
                throw ConfigError(key: "sleepInhibitor", problem: "must be \"block\", \"delay\" or \"off\", not '\(m)'")
            }
            c.sleepInhibitor = v
        }
        if let u = try r.string("units") {
            guard let v = Units(rawValue: u) else { throw ConfigError(key: "units", problem: "must be \"metric\" or \"imperial\", not '\(u)'") }
            c.units = v
        }
        if var m = try r.object("metrics") {
            try c.metrics.decode(&m)  // Config+Metrics.swift: shared with `recompute --set`
        }
        if var s = try r.object("streaks") {
            c.streaks.minimumSeconds = try s.number("minimumSeconds", in: 0...86400) ?? c.streaks.minimumSeconds
            c.streaks.weeklyTarget = try s.int("weeklyTarget", in: 1...21) ?? c.streaks.weeklyTarget
            if let w = try s.string("weekStart") {
                guard ["monday", "sunday", "saturday"].contains(w) else {
                    throw ConfigError(key: "streaks.weekStart", problem: "must be \"monday\", \"sunday\" or \"saturday\", not '\(w)'")
                }
                c.streaks.weekStart = w
            }
            c.streaks.dayStartHour = try s.int("dayStartHour", in: 0...12) ?? c.streaks.dayStartHour
            c.streaks.restDaysPerWeek = try s.int("restDaysPerWeek", in: 0...6) ?? c.streaks.restDaysPerWeek
            c.streaks.reminderHour = try s.int("reminderHour", in: 0...23) ?? c.streaks.reminderHour
            try s.finish()
        }
        if var l = try r.object("log") {
            c.log.file = try l.bool("file") ?? c.log.file
            c.log.maxFileBytes = try l.int("maxFileBytes", in: 10_000...1_000_000_000) ?? c.log.maxFileBytes
            c.log.keepFiles = try l.int("keepFiles", in: 1...100) ?? c.log.keepFiles
            if let lv = try l.string("level") {
                guard LogLevel.allCases.contains(where: { $0.label == lv }) else {
                    throw ConfigError(key: "log.level", problem: "must be one of error, warning, notice, info, debug; not '\(lv)'")
                }
                c.log.level = lv
            }
            try l.finish()
        }
        if var lim = try r.object("limits") {
            c.limits.maxClients = try lim.int("maxClients", in: 1...10_000) ?? c.limits.maxClients
            c.limits.maxRequestBytes = try lim.int("maxRequestBytes", in: 1024...16_777_216) ?? c.limits.maxRequestBytes
            c.limits.clientTimeoutSeconds = try lim.number("clientTimeoutSeconds", in: 1...86400) ?? c.limits.clientTimeoutSeconds
            try lim.finish()
        }
        if r.object["web"]?.isNull == true {
            _ = r.raw("web")
            c.web = nil
        } else if let web = r.raw("web") {
            do {
                var wr = try KeyReader(web, path: "web")
                if let listen = try wr.string("listen") {
                    guard let w = WebConfig(listen: listen) else {
                        throw ConfigError(key: "web.listen", problem: "'\(listen)' is not HOST:PORT with a port from 0 (any free port) to 65535")
                    }
                    c.web = w
                }
                let template = try wr.string("tiles"), attribution = try wr.string("tilesAttribution")
                if let template {
                    do { c.web?.tiles = try TileLayer(template: template, attribution: attribution) } catch {
                        throw ConfigError(key: "web.tiles", problem: "'\(template)' \(error)")
                    }
                } else if attribution != nil {
                    throw ConfigError(key: "web.tilesAttribution", problem: "is set but web.tiles is not: an attribution for no tiles")
                }
                try wr.finish()
            }
        }
        try decodeHeartRateKeys(&r, into: &c)
        try c.decodeHabitKeys(&r)
        try c.decodeHistoryKeys(&r)
        try r.finish()
        return c
    }

    /// The least important log level to write.
    public var logLevel: LogLevel { LogLevel.allCases.first { $0.label == log.level } ?? .info }
}

extension FeedConfig {
    static func decode(_ value: JSON, path: String) throws(ConfigError) -> FeedConfig {
        var r = try KeyReader(value, path: path)
        guard let kind = try r.string("kind") else { throw ConfigError(key: path + ".kind", problem: "missing; one of \"gpsd\", \"nmea\", \"socket\"") }
        let feed: FeedConfig
        switch kind {
        case "gpsd", "nmea":
            guard let address = try r.string("address") else { throw ConfigError(key: path + ".address", problem: "missing; e.g. \"127.0.0.1:2947\"") }
            guard let (host, port) = FeedConfig.splitAddress(address) else {
                throw ConfigError(key: path + ".address", problem: "'\(address)' is not HOST:PORT with a port from 1 to 65535")
            }
            feed = kind == "gpsd" ? .gpsd(host: host, port: port) : .nmea(host: host, port: port)
        case "socket":
            let p = try r.string("path") ?? "$XDG_RUNTIME_DIR/workoutd/feed.sock"
            guard !p.isEmpty else { throw ConfigError(key: path + ".path", problem: "must not be empty") }
            feed = .socket(path: p)
        default:
            throw ConfigError(key: path + ".kind", problem: "unknown feed kind '\(kind)'; one of \"gpsd\", \"nmea\", \"socket\"")
        }
        try r.finish()
        return feed
    }

    /// "host:port" or "[v6]:port" -> (host, port).
    public static func splitAddress(_ s: String) -> (String, UInt16)? {
        guard let colon = s.lastIndex(of: ":") else { return nil }
        var host = String(s[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, let port = UInt16(s[s.index(after: colon)...]), port > 0 else { return nil }
        return (host, port)
    }
}

/// Reads an object's keys, remembering which were used so `finish()` can name unknown ones.
struct KeyReader {
    let object: JSONObject
    let path: String
    var used: Set<String> = []

    init(_ value: JSON, path: String) throws(ConfigError) {
        guard let o = value.objectValue else { throw ConfigError(key: path, problem: "expected an object, got \(value.typeName)") }
        self.object = o
        self.path = path
    }

    func key(_ k: String) -> String { path.isEmpty ? k : path + "." + k }

    mutating func raw(_ k: String) -> JSON? {
        used.insert(k)
        guard let v = object[k], !v.isNull else { return nil }
        return v
    }

    mutating func string(_ k: String) throws(ConfigError) -> String? {
        guard let v = raw(k) else { return nil }
        guard let s = v.stringValue else { throw ConfigError(key: key(k), problem: "expected a string, got \(v.typeName)") }
        return s
    }

    mutating func bool(_ k: String) throws(ConfigError) -> Bool? {
        guard let v = raw(k) else { return nil }
        guard let b = v.boolValue else { throw ConfigError(key: key(k), problem: "expected true or false, got \(v.typeName)") }
        return b
    }

    mutating func number(_ k: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double? {
        guard let v = raw(k) else { return nil }
        guard let d = v.doubleValue else { throw ConfigError(key: key(k), problem: "expected a number, got \(v.typeName)") }
        guard range.contains(d) else { throw ConfigError(key: key(k), problem: "\(JSON.format(d)) is out of range \(JSON.format(range.lowerBound))...\(JSON.format(range.upperBound))") }
        return d
    }

    mutating func int(_ k: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = raw(k) else { return nil }
        guard let i = v.intValue else { throw ConfigError(key: key(k), problem: "expected a whole number, got \(v.doubleValue.map(JSON.format) ?? v.typeName)") }
        guard range.contains(i) else { throw ConfigError(key: key(k), problem: "\(i) is out of range \(range.lowerBound)...\(range.upperBound)") }
        return i
    }

    mutating func array(_ k: String) throws(ConfigError) -> [JSON]? {
        guard let v = raw(k) else { return nil }
        guard let a = v.arrayValue else { throw ConfigError(key: key(k), problem: "expected an array, got \(v.typeName)") }
        return a
    }

    mutating func object(_ k: String) throws(ConfigError) -> KeyReader? {
        guard let v = raw(k) else { return nil }
        return try KeyReader(v, path: key(k))
    }

    func finish() throws(ConfigError) {
        for k in object.keys where !used.contains(k) && !k.hasPrefix("_") {
            throw ConfigError(key: key(k), problem: "unknown key (keys starting with '_' are comments)")
        }
    }
}
