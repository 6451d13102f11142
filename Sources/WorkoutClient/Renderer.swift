import WorkoutCore

/// Turns the daemon's replies into text for people. Pure and tolerant: a missing or odd key
/// shows as a dash rather than failing, so an older or newer daemon still gives readable output.
public struct Renderer: Sendable {
    public var clock: LocalClock

    public init(clock: LocalClock = .system) { self.clock = clock }

    // MARK: status, watch

    /// The `status` block (also after start/pause/resume/lap/marker/toggle), one string per line.
    public func statusLines(_ r: JSON) -> [String] { statusLines(StatusReply(json: r)) }

    func statusLines(_ r: StatusReply) -> [String] {
        let u = UnitFormatter(r.units ?? .metric)
        var lines: [String] = []
        if let w = r.summary {
            let activity = w.activity
            lines.append("State:     \(r.state) (\(activity.displayName), started \(clock.timeOfDay(w.startedAt)))")
            if let p = r.pause, let why = pauseReason(p) { lines.append("Paused:    " + why) }
            var elapsed = "Elapsed:   " + Units.duration(w.elapsedSeconds)
            if let t = timer(w) { elapsed += " (timer \(Units.duration(t)))" }
            elapsed += " (moving \(Units.duration(w.movingSeconds)))"
            lines.append(elapsed)
            if activity.supportsGPS || w.distanceMeters > 0 {
                lines.append("Distance:  " + u.distance(w.distanceMeters))
                if let label = UnitFormatter.effortLabel(for: activity) {
                    var e = pad(label + ":", 11) + (u.effort(w.movingAverageSpeed, for: activity) ?? "")
                    e += " avg"
                    if let now = w.currentSpeed { e += ", " + (u.effort(now, for: activity) ?? "") + " now" }
                    lines.append(e)
                }
            }
            if let hr = heartRateNow(w) { lines.append("Heart:     " + hr) }
            if let p = power(w) { lines.append("Power:     " + p) }
            if let c = cadence(w) { lines.append("Cadence:   " + c) }
            if let c = w.calories { lines.append("Calories:  " + formatFixed(c, decimals: 0) + " kcal" + caloriesHow(w)) }
            for warning in w.warnings { lines.append("Warning:   " + warning) }
        } else {
            lines.append("State:     \(r.state)" + (r.state == "idle" ? " (no workout in progress)" : ""))
        }
        if let p = r.plan { lines += plan(p) }
        // GPS is closed while paused: "no fix (no source)" then says nothing true.
        lines.append("GPS:       " + (r.gpsClosedWhilePaused ? "off while paused" : gps(r.gps)))
        for sensor in r.sensorReplies { lines.append("Sensor:    " + self.sensor(sensor)) }
        if let a = r.action { lines.append("Toggle:    " + a) }
        if let e = r.saveError { lines.append("Save:      FAILED: " + e) }
        return lines
    }

    /// The plan's lines of `status` (`status.plan`): "Plan:      3 x 20, step 2 of 9: work,
    /// 285 W, 12:34 left" and "Next:      recovery, 150 W for 5:00".
    func plan(_ p: PlanReply) -> [String] {
        var line = "Plan:      \(p.name), step \(p.stepIndex + 1) of \(p.stepCount): " + planStep(p.step, now: true)
        if let s = p.remainingSeconds { line += ", " + Units.duration(s) + " left" }
        if let m = p.remainingMeters { line += ", " + formatFixed(m, decimals: 0) + " m left" }
        switch p.state {
        case "completed": line += " (done)"
        case "paused": line += " (paused)"
        default: break
        }
        var lines = [line]
        if let n = p.next { lines.append("Next:      " + planStep(n, now: false)) }
        return lines
    }

    /// A plan step from its protocol object: "work, 285 W", "recovery, 150 W for 5:00".
    func planStep(_ step: JSON, now: Bool) -> String {
        PlanReply.words(step, now: now, duration: Units.duration)
    }

    /// Why a workout is paused, from `status.pause`: "restored after a restart at 13:45 (workoutd
    /// stopped at 13:40); resume to continue", or "since 13:45" for a pause of the user's.
    func pauseReason(_ p: PauseReply) -> String? {
        let since = p.since.map { String(clock.timeOfDay($0).prefix(5)) }
        switch p.reason {
        case "recovered":
            var s = "restored after a restart"
            if let at = p.restoredAt { s += " at " + clock.timeOfDay(at).prefix(5) }
            if let since { s += " (workoutd stopped at \(since))" }
            return s + "; `workoutctl resume` to continue"
        default:
            return since.map { "since \($0)" }
        }
    }

    public func status(_ r: JSON) -> String { statusLines(r).joined(separator: "\n") + "\n" }

    /// One line per `watch` update when output is not a terminal.
    public func statusLine(_ json: JSON) -> String {
        let r = StatusReply(json: json)
        let u = UnitFormatter(r.units ?? .metric)
        var parts = [r.state]
        if let w = r.summary {
            let activity = w.activity
            parts.append(activity.displayName)
            parts.append(Units.duration(w.elapsedSeconds))
            if activity.supportsGPS || w.distanceMeters > 0 {
                parts.append(u.distance(w.distanceMeters))
                // Say which pace it is: the current one, else the moving average.
                if let now = w.currentSpeed, let e = u.effort(now, for: activity) {
                    parts.append(e + " now")
                } else if let e = u.effort(w.movingAverageSpeed, for: activity) {
                    parts.append(e + " avg")
                }
            }
            if let bpm = w.heartRate {
                parts.append("\(bpm) bpm" + (w.heartRateZone.map { " " + Renderer.zoneLabel($0) } ?? ""))
            }
            if let p = w.power { parts.append("\(p) W") } else if let p = w.averagePower { parts.append(formatFixed(p, decimals: 0) + " W avg") }
            if let c = w.cadence { parts.append("\(c) " + cadenceUnit(w)) }
        }
        parts.append("GPS " + (r.gps.fix ?? "none"))
        if let e = r.saveError { parts.append("save failed: " + e) }
        return parts.joined(separator: "  ")
    }

    /// "142 bpm, zone 3 (avg 131, max 150)", or "no reading (avg ...)" in a gap; nil without heart rate.
    func heartRateNow(_ w: WorkoutSummary) -> String? {
        let avg = w.averageHeartRate
        guard let bpm = w.heartRate else {
            return avg.map { "no reading (avg \(formatFixed($0, decimals: 0)), max \(w.maxHeartRate ?? 0))" }
        }
        var s = "\(bpm) bpm"
        if let z = w.heartRateZone { s += " " + Renderer.zoneLabel(z) }
        if let avg { s += " (avg \(formatFixed(avg, decimals: 0)), max \(w.maxHeartRate ?? bpm))" }
        return s
    }

    /// "250 W now, 212 W avg, max 480 W, NP 230 W, IF 0.92, TSS 45" from a summary's `power`
    /// (live), `averagePower`, `maxPower`, `normalizedPower`, `intensityFactor`, `trainingStress`;
    /// nil without power.
    func power(_ w: WorkoutSummary) -> String? {
        guard let avg = w.averagePower else { return nil }
        var s = w.power.map { "\($0) W now, " } ?? ""
        s += formatFixed(avg, decimals: 0) + " W avg" + (w.maxPower.map { ", max \($0) W" } ?? "")
        if let np = w.normalizedPower { s += ", NP " + formatFixed(np, decimals: 0) + " W" }
        if let f = w.intensityFactor { s += ", IF " + formatFixed(f, decimals: 2) }
        if let t = w.trainingStress, (w.trainingStressMethod ?? .power) == .power {
            s += ", TSS " + formatFixed(t, decimals: 0)
        }
        return s
    }

    /// "62 (from heart rate)" or "48 (from pace)": training stress measured without power
    /// (power's TSS is on the power line); nil otherwise.
    func stressWithoutPower(_ w: WorkoutSummary) -> String? {
        guard let t = w.trainingStress, let m = w.trainingStressMethod else { return nil }
        switch m {
        case .power: return nil
        case .pace: return formatFixed(t, decimals: 0) + " (from pace)"
        case .heartRate: return formatFixed(t, decimals: 0) + " (from heart rate)"
        }
    }

    /// "rpm", or "spm" for runs and activities shown by pace (a run's or walk's steps per
    /// minute, `ActivityType.countsSteps`; a rower's or swimmer's strokes).
    func cadenceUnit(_ w: WorkoutSummary) -> String {
        let a = w.activity
        if a.tcxSport == .running { return "spm" }  // a treadmill run shows no pace, but strides
        switch a.effortDisplay {
        case .pace: return "spm"
        case .speed, .none: return "rpm"
        }
    }

    /// "90 rpm now, 88 rpm avg" (strides per minute, "spm", for activities shown by pace); nil
    /// without cadence.
    func cadence(_ w: WorkoutSummary) -> String? {
        guard let avg = w.averageCadence else { return nil }
        let unit = cadenceUnit(w)
        return (w.cadence.map { "\($0) \(unit) now, " } ?? "") + formatFixed(avg, decimals: 0) + " \(unit) avg"
    }

    /// "412 kJ" of work, "Z1 3:00  Z2 12:30 ..." in power zones, "5 s 812 W, 1 min 420 W, ..."
    /// as the best mean powers; each nil without it.
    func work(_ w: WorkoutSummary) -> String? { w.workKilojoules.map { formatFixed($0, decimals: 0) + " kJ" } }

    func powerZones(_ w: WorkoutSummary) -> String? {
        let secs = w.powerZoneSeconds
        guard secs.contains(where: { $0 > 0 }) else { return nil }
        return secs.enumerated().filter { $0.element > 0 }.map { "Z\($0.offset + 1) " + Units.shortDuration($0.element) }.joined(separator: "  ")
    }

    func powerCurve(_ w: WorkoutSummary) -> String? {
        let points = w.powerCurve.map { p -> String in
            let d = p.seconds < 60 ? "\(p.seconds) s" : "\(p.seconds / 60) min"
            return d + " " + formatFixed(p.watts, decimals: 0) + " W"
        }
        return points.isEmpty ? nil : points.joined(separator: ", ")
    }

    /// The reply's `personalBests` (stop, show): a line per record beaten,
    /// "Personal best: fastest 5 km 24:31 (previous 25:02)", and one line for the distances
    /// covered for the first time, "First efforts: 400 m 1:39, 1 km 4:09"; empty without any.
    public func personalBests(_ r: JSON) -> String {
        personalBests((r["personalBests"]?.arrayValue ?? []).compactMap(PersonalBestReply.init(json:)))
    }

    func personalBests(_ bests: [PersonalBestReply]) -> String {
        var s = ""
        var firsts: [String] = []
        for b in bests {
            if let p = b.previousSeconds {
                s += "Personal best: fastest \(UnitFormatter.bestEffortName(b.distanceMeters)) \(Units.shortDuration(b.seconds)) (previous \(Units.shortDuration(p)))\n"
            } else {
                firsts.append("\(UnitFormatter.bestEffortName(b.distanceMeters)) \(Units.shortDuration(b.seconds))")
            }
        }
        if !firsts.isEmpty { s += "First efforts: " + firsts.joined(separator: ", ") + "\n" }
        return s
    }

    func caloriesHow(_ w: WorkoutSummary) -> String {
        switch w.caloriesMethod {
        case .heartRate?: return " (from heart rate)"
        case .met?: return " (from MET)"
        case .power?: return " (from power)"
        case .device?: return " (from the device)"
        case nil: return ""
        }
    }

    /// A sensor entry of `status`: "HRM-Dual connected, battery 80 %" or "lost - reason; retrying in 2 s".
    func sensor(_ r: SensorReply) -> String {
        var s = r.name ?? "sensor"
        s += " " + (r.state ?? "?").replacingUnderscores()
        if let b = r.battery { s += ", battery \(b) %" }
        if let p = r.problem { s += " - " + p }
        return s
    }

    /// Seconds per zone as "Z1 3:00  Z2 1:30"; zone 0 (below zone 1) as "<Z1"; empty zones left out.
    func zones(_ secs: [Double]) -> String? {
        guard secs.contains(where: { $0 > 0 }) else { return nil }
        return secs.enumerated().filter { $0.element > 0 }
            .map { Renderer.zoneLabel($0.offset) + " " + Units.shortDuration($0.element) }.joined(separator: "  ")
    }

    /// A heart-rate zone as every output names it: "Z3", and "<Z1" for below zone 1 (zone 0).
    static func zoneLabel(_ zone: Int) -> String { zone <= 0 ? "<Z1" : "Z\(zone)" }

    func gps(_ g: GPSReply) -> String {
        var s: String
        switch g.fix ?? "none" {
        case "none": s = "no fix"
        case let f: s = f + " fix"
        }
        if let n = g.satellites { s += ", \(n) satellite" + (n == 1 ? "" : "s") }
        if let age = g.lastFixAgeSeconds { s += ", " + formatFixed(age, decimals: 0) + " s ago" }
        if let src = g.source { s += " (\(src))" } else { s += " (no source)" }
        if let p = g.problem { s += " - " + p }
        return s
    }

    // MARK: summaries

    /// A finished or saved workout: the headline figures, one per line, in `units` (a reply's
    /// own: `UnitFormatter(reply:)`).
    public func summary(_ json: JSON, units u: UnitFormatter = .metric) -> String {
        WorkoutSummary(json: json).map { summary($0, units: u) } ?? "No workout in the reply.\n"
    }

    func summary(_ w: WorkoutSummary, units u: UnitFormatter) -> String {
        let activity = w.activity
        var s = w.title.map { $0 + "\n" } ?? ""
        s += activity.displayName + ", " + clock.dateTime(w.startedAt)
        if let end = w.endedAt { s += " - " + clock.timeOfDay(end).prefix(5) }
        s += "\n"
        s += "ID:        \(w.id.rawValue)\n"
        s += "Elapsed:   " + Units.duration(w.elapsedSeconds) + "\n"
        if let t = timer(w) { s += "Timer:     " + Units.duration(t) + " (pauses left out)\n" }
        s += "Moving:    " + Units.duration(w.movingSeconds) + "\n"
        if activity.supportsGPS || w.distanceMeters > 0 {
            s += "Distance:  " + u.distance(w.distanceMeters) + distanceSourceNote(w) + "\n"
            if let label = UnitFormatter.effortLabel(for: activity), let e = u.effort(w.movingAverageSpeed, for: activity) {
                s += pad(label + ":", 11) + e + " (moving average)\n"
            }
            if w.maxSpeed > 0 { s += "Max speed: " + u.speed(w.maxSpeed) + "\n" }
            s += implausible(w, units: u)
            s += "Climb:     +" + u.elevation(w.elevationGainMeters) + " / -" + u.elevation(w.elevationLossMeters)
            // The device's own figure beside ours (a FIT session's total_ascent and total_descent).
            if let dg = w.deviceElevationGainMeters {
                s += " (device +" + u.elevation(dg) + (w.deviceElevationLossMeters.map { " / -" + u.elevation($0) } ?? "") + ")"
            }
            s += "\n"
        }
        s += deviceLines(w, units: u)
        if let avg = w.averageHeartRate {
            s += "Heart:     avg \(formatFixed(avg, decimals: 0)) bpm, max \(w.maxHeartRate ?? 0) bpm\n"
        }
        if let z = zones(w.heartRateZoneSeconds) { s += "Zones:     " + z + "\n" }
        if let t = stressWithoutPower(w) { s += "Stress:    " + t + "\n" }
        if let p = power(w) { s += "Power:     " + p + "\n" }
        if let z = powerZones(w) { s += "Power Z:   " + z + "\n" }
        if let c = powerCurve(w) { s += "Best:      " + c + "\n" }
        if let k = work(w) { s += "Work:      " + k + "\n" }
        if let c = cadence(w) { s += "Cadence:   " + c + "\n" }
        if let c = w.calories { s += "Calories:  " + formatFixed(c, decimals: 0) + " kcal" + caloriesHow(w) + "\n" }
        s += "Points:    \(w.pointCount)\n"
        s += annotation(w)
        return s
    }

    /// One line per implausible stretch (`implausible`): when, how long, how far, how fast, why.
    func implausible(_ w: WorkoutSummary, units u: UnitFormatter) -> String {
        var s = ""
        for x in w.implausible {
            let why: String
            switch x.reason {
            case .speed: why = "too fast"
            case .acceleration: why = "a catch-up: farther than the speed before allows"
            case .record: why = "faster than the world's best"
            }
            s += "Implausible: " + clock.timeOfDay(x.start).prefix(8) + " for " + Units.shortDuration(x.seconds) + ", " + u.distance(x.meters)
                + " up to " + u.speed(x.speed) + " (" + why + "); not in max speed, best efforts or records\n"
        }
        return s
    }

    /// The timer's time (`timerSeconds`) when it differs from the wall span by a second or
    /// more (pauses, a device's timer stops); nil otherwise.
    func timer(_ w: WorkoutSummary) -> Double? {
        abs(w.timerSeconds - w.elapsedSeconds) >= 1 ? w.timerSeconds : nil
    }

    /// The gear, perceived effort, records exclusion and notes lines of a summary (only those set).
    func annotation(_ w: WorkoutSummary) -> String {
        var s = ""
        if let g = w.gear { s += "Gear:      " + g + "\n" }
        if let e = w.effort { s += "Effort:    \(e)/10\n" }
        if !w.records.counts { s += "Records:   excluded (edit --records on counts it)\n" }
        if let n = w.notes {
            s += "Notes:     " + n.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n           ") + "\n"
        }
        return s
    }

    /// `stop`: the final summary of the workout just ended.
    public func stopped(_ json: JSON) -> String {
        let r = StatusReply(json: json)
        var s = "Workout stopped; saving.\n"
        if let w = r.summary { s += summary(w, units: UnitFormatter(r.units ?? .metric)) }
        s += personalBests(r.personalBests ?? [])
        if let e = r.saveError { s += "Save:      FAILED: " + e + "\n" }
        return s
    }

    /// `show`: summary, laps, splits, best efforts and events.
    public func show(_ json: JSON) -> String {
        guard let r = ShowReply(json: json) else { return "No workout in the reply.\n" }
        let w = r.workout
        let activity = w.activity
        let u = UnitFormatter(r.units ?? .metric)
        var s = summary(w, units: u)
        s += personalBests(r.personalBests)
        for (title, items) in [("Laps", w.laps), ("Splits", w.splits)] where !items.isEmpty {
            s += "\n\(title):\n"
            let withHR = items.contains { $0.averageHeartRate != nil }
            let withPower = items.contains { $0.averagePower != nil }
            let withCadence = items.contains { $0.averageCadence != nil }
            let withZones = items.contains { zones($0.heartRateZoneSeconds) != nil }
            // One clock: time and pace from moving time, the elapsed time in its own column.
            var rows = [["#", "MOVING", "ELAPSED", "DISTANCE", UnitFormatter.effortLabel(for: activity)?.uppercased() ?? "", "CLIMB"]
                + (withPower ? ["POWER", "MAX W"] : []) + (withCadence ? ["CAD"] : []) + (withHR ? ["HR AVG", "MAX"] : [])
                + (withZones ? ["ZONES"] : [])]
            for it in items {
                var row = [
                    String(it.index + 1),  // JSON counts from 0; people (and the log) from 1
                    Units.shortDuration(movingOfSection(it)),
                    Units.shortDuration(it.elapsedSeconds),
                    u.distance(it.distanceMeters),
                    effortOfSection(it, activity, u) ?? "",
                    "+" + u.elevation(it.elevationGainMeters),
                ]
                if withPower { row += [it.averagePower.map { "\($0) W" } ?? "-", it.maxPower.map(String.init) ?? "-"] }
                if withCadence { row += [it.averageCadence.map(String.init) ?? "-"] }
                if withHR { row += [it.averageHeartRate.map(String.init) ?? "-", it.maxHeartRate.map(String.init) ?? "-"] }
                if withZones { row += [zones(it.heartRateZoneSeconds) ?? ""] }
                rows.append(row)
            }
            let numeric = 6 + (withPower ? 2 : 0) + (withCadence ? 1 : 0) + (withHR ? 2 : 0)  // all but ZONES
            s += table(rows, rightAligned: Set(0..<numeric))
            if items.contains(where: { $0.implausibleMeters > 0 }) {
                s += "* pace without the implausible stretches in it (their distance and time stay in the row)\n"
            }
        }
        s += plan(w.plan)
        if !w.bestEfforts.isEmpty {
            s += "\nBest efforts:\n"
            let rows = w.bestEfforts.map { [UnitFormatter.bestEffortName($0.distanceMeters), Units.shortDuration($0.seconds)] }
            s += table(rows, rightAligned: [0, 1], header: false)
        }
        if !r.events.isEmpty {
            s += "\nEvents:\n"
            for e in r.events {
                var line = "  " + clock.timeOfDay(e.time) + "  " + e.kind.rawValue
                if let c = e.cause { line += " (\(c.rawValue))" }
                if let t = e.text { line += ": " + t }
                s += line + "\n"
            }
        }
        return s
    }

    /// What was done of the plan (`show`): a line with the compliance, a row per step begun
    /// with its target, what its laps measured of it and its score; "" without a plan.
    func plan(_ plan: PlanOutcome?) -> String {
        guard let plan else { return "" }
        var s = "\nPlan: \(plan.name), \(plan.steps.count) of \(plan.stepCount) steps"
        s += plan.compliance.map { ", compliance " + formatFixed($0, decimals: 1) + " %\n" } ?? "\n"
        var rows = [["#", "STEP", "TARGET", "ACTUAL", "TIME", "SCORE"]]
        for st in plan.steps {
            let (wanted, actual) = st.figures
            rows.append([String(st.index + 1), st.kind.words, wanted, actual, Units.shortDuration(st.seconds),
                         st.compliance.map { formatFixed($0, decimals: 0) + " %" } ?? "-"])
        }
        return s + table(rows, rightAligned: [0, 3, 4, 5])
    }

    /// A split's or lap's moving time (its elapsed time when nothing moved: an indoor lap).
    func movingOfSection(_ it: LapSummary) -> Double {
        it.movingSeconds > 0 ? it.movingSeconds : it.elapsedSeconds
    }

    /// Its pace or speed (`LapSummary.paceSpeed`: without the implausible stretches inside,
    /// whose distance and time stay in the row), marked "*" when there are some.
    func effortOfSection(_ it: LapSummary, _ activity: ActivityType, _ u: UnitFormatter) -> String? {
        guard it.paceSeconds > 0 else { return u.effort(nil, for: activity) }
        let effort = u.effort(it.paceSpeed, for: activity)
        return it.implausibleMeters > 0 ? effort.map { $0 + "*" } : effort
    }

    // MARK: lists

    /// `list`: one row per workout.
    public func list(_ json: JSON) -> String {
        let r = ListReply(json: json)
        let items = r.summaries
        if items.isEmpty { return "No workouts.\n" }
        let u = UnitFormatter(r.units ?? .metric)
        let withPower = items.contains { $0.averagePower != nil }
        let withTitle = items.contains { $0.title != nil }
        var rows = [["ID", "START", "ACTIVITY", "TIME", "DISTANCE", "PACE/SPEED", "HR"] + (withPower ? ["POWER"] : []) + (withTitle ? ["TITLE"] : [])]
        for w in groupingLegs(items) {
            let activity = w.activity
            let hasDistance = activity.supportsGPS || w.distanceMeters > 0
            rows.append([
                w.id.rawValue,
                clock.dateTime(w.startedAt),
                listActivity(w),
                Units.duration(w.movingSeconds > 0 ? w.movingSeconds : w.elapsedSeconds),
                hasDistance ? u.distance(w.distanceMeters) : "-",
                hasDistance ? (u.effort(w.movingAverageSpeed, for: activity) ?? "-") : "-",
                w.averageHeartRate.map { formatFixed($0, decimals: 0) } ?? "-",
            ] + (withPower ? [w.averagePower.map { formatFixed($0, decimals: 0) + " W" } ?? "-"] : [])
              + (withTitle ? [w.title.map { Renderer.shortened($0, to: Renderer.listTitleWidth) } ?? ""] : []))
        }
        return table(rows, rightAligned: [3, 4, 5, 6, 7])
    }

    /// Widest title `list` shows (longer ones end in "...").
    static let listTitleWidth = 40

    /// `text` on one line, at most `width` characters.
    static func shortened(_ text: String, to width: Int) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.count <= width ? line : String(line.prefix(width - 3)) + "..."
    }

    /// `activities`: name, display name, GPS, effort.
    public func activities(_ r: JSON) -> String {
        var rows = [["NAME", "DISPLAY NAME", "GPS", "SHOWS"]]
        for a in ActivityReply.list(r) { rows.append([a.name, a.displayName, a.supportsGPS ? "yes" : "no", a.effort]) }
        return table(rows, rightAligned: [])
    }

    /// `streak`: the daily and weekly lines.
    public func streak(_ r: JSON) -> String {
        let s = StreakReply(json: r["streak"] ?? .null)
        var out = ""
        if let d = s.daily {
            var line = "Daily streak:  " + streakLine(d.current, d.best, d.currentStart, d.bestStart, d.bestEnd, "day")
            if let done = d.todayDone { line += done ? "; today done" : (d.current > 0 ? "; not yet today" : "") }
            out += line + "\n"
        }
        if let w = s.weekly { out += "Weekly streak: " + streakLine(w.current, w.best, w.currentStart, w.bestStart, w.bestEnd, "week") + "\n" }
        for h in s.habits {
            var line = "\(h.name): "
            line += h.done ? "done" : (h.leftText ?? "not done")
            if !h.done, let d = h.daysToGo, h.dueToday ?? true { line += ", " + HabitText.daysToGo(d) }
            line += "; streak \(count(h.current, h.per)), best \(count(h.best, h.per))"
            if h.atRisk { line += "; AT RISK" }
            out += line + "\n"
        }
        return out.isEmpty ? "No streak data.\n" : out
    }

    /// "5 days (since 2026-11-17); best 12 days (2026-10-01 to 2026-10-12)".
    func streakLine(_ current: Int, _ best: Int, _ currentStart: String?, _ bestStart: String?, _ bestEnd: String?, _ unit: String) -> String {
        var line = count(current, unit)
        if current > 0, let since = currentStart { line += " (since \(since))" }
        line += "; best \(count(best, unit))"
        if best > 0, let from = bestStart { line += " (\(from)" + (bestEnd.map { " to " + $0 } ?? "") + ")" }
        return line
    }

    /// `totals`: this and the previous period side by side.
    public func totals(_ r: JSON) -> String {
        guard let t = r["totals"].flatMap(PeriodTotals.init(json:)) else { return "No totals in the reply.\n" }
        let per = t.per.rawValue
        let u = UnitFormatter(reply: r)
        let rows: [(String, (PeriodSums) -> String)] = [
            ("", { "\($0.start.iso)..\($0.end.iso)" }),
            ("Workouts", { "\($0.count)" }),
            ("Distance", { u.distance($0.distanceMeters) }),
            ("Moving time", { Units.duration($0.movingSeconds) }),
            ("Climb", { u.elevation($0.elevationGainMeters) }),
        ]
        var out = "Totals per \(per)" + (t.activity.map { " (\($0.rawValue))" } ?? "") + "\n"
        out += pad("", 13) + pad("this \(per)", 24) + "last \(per)\n"
        for (label, f) in rows { out += pad(label, 13) + pad(f(t.current), 24) + f(t.previous) + "\n" }
        if !t.gear.isEmpty {
            out += "\nGear (all time):\n"
            var table = [["GEAR", "WORKOUTS", "DISTANCE", "MOVING", "LAST USED"]]
            for g in t.gear {
                table.append([g.name, "\(g.count)", u.distance(g.distanceMeters), Units.duration(g.movingSeconds),
                              g.lastUsed.isFinite ? String(clock.dateTime(g.lastUsed).prefix(10)) : "-"])
            }
            out += self.table(table, rightAligned: [1, 2, 3])
        }
        return out
    }

    /// `import`: one line per file.
    public func importResults(_ r: JSON) -> String {
        (r["results"]?.arrayValue ?? []).map(importLine).joined()
    }

    /// One file's import result (a `results` item or an `import` event).
    public func importLine(_ json: JSON) -> String {
        let item = ImportResultReply(json: json)
        let file = item.file
        switch item.kind {
        case .imported:
            let activity = item.activity.map { " (\($0.displayName))" } ?? ""
            let warnings = item.warnings.map { "  warning: \($0)\n" }.joined()
            return "imported   \(file) -> \(item.id?.rawValue ?? "?")\(activity)\n" + warnings
        case .duplicate: return "duplicate  \(file)" + (item.id.map { " (already saved as \($0.rawValue))" } ?? "") + "\n"
        case .error: return "error      \(file): \(item.error ?? "failed")\n"
        }
    }

    // MARK: helpers

    /// The value when it is a JSON object (not null, not some other type).
    func object(_ v: JSON?) -> JSON? {
        guard let v, v.objectValue != nil else { return nil }
        return v
    }

    func num(_ v: JSON?) -> Double { v?.doubleValue ?? 0 }
    func time(_ v: JSON?) -> Double? { v?.stringValue.flatMap { ISO8601.parse($0) } }
    func count(_ n: Int, _ unit: String) -> String { EnglishCount.of(n, unit) }
    func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count) }

    /// Columns separated by two spaces; the given columns right-aligned.
    func table(_ rows: [[String]], rightAligned: Set<Int>, header: Bool = true) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for r in rows {
            var line = header ? "" : "  "
            for (i, c) in r.enumerated() {
                let fill = String(repeating: " ", count: widths[i] - c.count)
                if i > 0 { line += "  " }
                line += rightAligned.contains(i) ? fill + c : c + (i + 1 < r.count ? fill : "")
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}

extension String {
    func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}

extension Renderer {
    /// The `charts` reply as braille charts, 4 rows each, one after another.
    public func charts(_ reply: JSON) -> String {
        let charts = (reply["charts"]?.arrayValue ?? []).compactMap(TerminalChart.init(json:))
        guard !charts.isEmpty else { return "No charts: this workout has no samples to draw.\n" }
        return "\n" + charts.map { $0.lines(rows: 4).joined(separator: "\n") + "\n" }.joined(separator: "\n")
    }
}
