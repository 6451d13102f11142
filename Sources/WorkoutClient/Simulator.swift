import Glibc
import WorkoutSystem
import WorkoutCore

/// `simulate`: writes an NMEA log, JSON fix lines or the built-in route into the feed socket,
/// after a `{"class":"SIMULATION","speed":X}` header, paced by the lines' own times divided by X.
struct Simulator {
    let client: Client
    let invocation: Invocation
    let options: SimulateOptions

    /// The feed socket: --feed-socket, else beside a --socket given, else the default.
    var feedPath: String {
        if let p = options.feedSocket { return p }
        if let s = invocation.socketPath, let slash = s.lastIndex(of: "/") { return String(s[..<slash]) + "/feed.sock" }
        return client.paths.feed
    }

    func run() -> ExitCode {
        let console = client.console
        // What to send.
        var feed: SimulationFeed?
        var route: BuiltInRoute?
        var what: String
        if let file = options.file {
            let parsed = Simulator.readFile(file).flatMap { SimulationFeed.parse(bytes: $0) }
            switch parsed {
            case .failure(let e):
                console.err("workoutctl: cannot simulate \(file): \(e)\n")
                return .failed
            case .success(let f):
                feed = options.heartRate.map { f.withHeartRate($0) } ?? f
                what = "\(f.pointLineCount) \(f.kind.linesNoun) from \(file)"
            }
        } else {
            let status = statusReply()
            let activity = options.activity ?? status.flatMap { StatusReply(json: $0).summary?.activity } ?? .running
            let r = BuiltInRoute(activity: activity, start: Simulator.wallClock().rounded(.down))
            route = r
            let u = UnitFormatter(reply: status)
            what = "a built-in \(u.distance(r.speed * Double(BuiltInRoute.lapSeconds))) loop for \(activity.displayName.lowercased()) at \(u.effort(r.speed, for: activity) ?? u.speed(r.speed))"
        }
        // Where to.
        let conn: LineConnection
        do { conn = try client.connect(feedPath) } catch {
            return client.report(.connection(error), json: invocation.json)
        }
        let signals = client.catchesSignals ? Interrupts.install() : -1
        if !invocation.json {
            let pace = options.speed == 0 ? "as fast as possible" : (options.speed == 1 ? "in real time" : "at \(NumberText.short(options.speed))x")
            if let hr = options.heartRate { what += " with a heart rate of \(hr.label)" }
            console.out("Feeding \(what) into \(feedPath) \(pace)\(options.loop ? ", looping" : ""); Ctrl-C to stop.\n")
        }
        var pacer = Pacer(speed: options.speed)
        var sent = 0
        var outcome = Outcome.finished
        func send(_ lines: [TimedLine]) -> Bool {
            for l in lines {
                if let t = l.time {
                    if let o = pacer.wait(until: t, conn: conn, signals: signals) { outcome = o; return false }
                }
                do { try conn.send(line: l.line) } catch { outcome = .closed; return false }
                sent += 1
            }
            return true
        }
        do {
            try conn.send(line: SimulationFeed.header(speed: options.speed, recordedTrack: feed?.isRecordedTrack ?? false))
        } catch {
            return client.report(.connection(error), json: invocation.json)
        }
        if let feed {
            var pass = 0
            while send(feed.lines(pass: pass)), options.loop, feed.period > 0 { pass += 1 }
        } else if var route {
            var lap = 0
            func lines(_ lap: Int) -> [TimedLine] {
                let fixes = route.fixes(fromSecond: lap * BuiltInRoute.lapSeconds, count: BuiltInRoute.lapSeconds)
                guard let hr = options.heartRate else { return fixes }
                return SimulationFeed(kind: .jsonLines, lines: fixes).withHeartRate(hr, from: route.start).lines
            }
            while send(lines(lap)), options.loop { lap += 1 }
        }
        let code: ExitCode
        switch outcome {
        case .finished, .interrupted: code = .ok
        case .closed: code = .failed
        }
        if invocation.json {
            let r: JSON = ["sent": .int(sent), "feedSocket": .string(feedPath), "interrupted": .bool(outcome == .interrupted), "daemonClosed": .bool(outcome == .closed)]
            console.out(r.serialized() + "\n")
        } else {
            console.out("\(outcome == .interrupted ? "\n" : "")Sent \(sent) line\(sent == 1 ? "" : "s").\n")
        }
        if outcome == .closed { console.err("workoutctl: workoutd closed the feed socket before the end\n") }
        return code
    }

    enum Outcome: Equatable { case finished, interrupted, closed }

    /// The activity of the workout in progress (nil when idle or the daemon does not answer).
    /// The daemon's status (the workout in progress, the display units); nil when it does not answer.
    func statusReply() -> JSON? {
        guard case .success(let r) = client.exchange(ControlRequest.status.encoded(), socket: client.controlPath(invocation), timeout: 5) else { return nil }
        return r
    }

    /// Schedules lines on the monotonic clock: a line of simulated time t is due at
    /// start + (t - t0) / speed. Speed 0 sends without waiting.
    struct Pacer {
        let speed: Double
        var firstTime: Double?
        var startClock = 0.0

        init(speed: Double) { self.speed = speed }

        /// Waits until `t` is due; returns why it stopped early, or nil when due.
        mutating func wait(until t: Double, conn: LineConnection, signals: Int32) -> Outcome? {
            if Interrupts.pending() { return .interrupted }
            guard speed > 0 else { return Simulator.peerClosed(conn) ? .closed : nil }
            guard let t0 = firstTime else { firstTime = t; startClock = Simulator.monotonic(); return nil }
            let due = startClock + (t - t0) / speed
            while true {
                let left = due - Simulator.monotonic()
                if left <= 0 { return nil }
                var fds = [pollfd(fd: conn.fd, events: Int16(POLLIN), revents: 0)]
                if signals >= 0 { fds.append(pollfd(fd: signals, events: Int16(POLLIN), revents: 0)) }
                let rc = poll(&fds, nfds_t(fds.count), Int32(min(left * 1000, 1_000_000).rounded(.up)))
                if rc < 0 { if Interrupts.pending() { return .interrupted }; continue }
                if fds.count > 1, fds[1].revents != 0, Interrupts.pending() { return .interrupted }
                if fds[0].revents != 0, Simulator.peerClosed(conn) { return .closed }
            }
        }
    }

    /// Whether the daemon closed the feed socket (anything it sent is drained and ignored).
    static func peerClosed(_ conn: LineConnection) -> Bool {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(conn.fd, &buf, buf.count, Int32(MSG_DONTWAIT))
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET || errno == EPIPE }
        }
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func wallClock() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// A whole file's bytes (a regular file of at most 512 MB: a FIFO or device is refused).
    static func readFile(_ path: String) -> Result<[UInt8], SimulationError> {
        do { return .success(try readRegularFile(path, limit: 512 << 20)) } catch {
            return .failure(.unreadable(error.description))
        }
    }
}
