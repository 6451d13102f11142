import Testing
@testable import WorkoutCore

/// What saving a workout announces for habits, the log lines, and the desktop notices.
@Suite struct HabitEventsTests {
    static let engine = HabitEngine(calendar: HabitCalendar(zone: .utc))
    static func run(_ s: String, km: Double = 8) -> StreakWorkout {
        StreakWorkout(startedAt: ISO8601.parse(s)!, durationSeconds: 2400, activity: .running, distanceMeters: km * 1000)
    }

    @Test func doneAndNewBestAfterASave() {
        let h = Habit(name: "run daily", activities: [.running], per: .day)
        let history = ["2026-11-10T07:00:00Z", "2026-11-11T07:00:00Z", "2026-11-17T07:00:00Z", "2026-11-18T07:00:00Z"].map { Self.run($0) }
        let now = ISO8601.parse("2026-11-19T20:00:00Z")!
        let events = HabitReport.events(saving: Self.run("2026-11-19T19:00:00Z"), into: history, habits: [h], now: now, engine: Self.engine)
        expectEqual(events.map(\.name), ["habit.done", "habit.best"])
        guard events.count == 2 else { return }
        expectEqual(events[0].message, "run daily: done today (streak of 3 days)")
        expectEqual(events[1].message, "run daily: new best streak of 3 days (was 2)")
        #expect(Logfmt.render(events[1], style: .plain, timestamp: now).hasSuffix(
            "event=habit.best level=info habit=\"run daily\" per=day length=3 start=2026-11-17 end=2026-11-19 previous=2"))
        // A second workout the same day changes nothing; the very first workout is no "new best".
        #expect(HabitReport.events(saving: Self.run("2026-11-19T21:00:00Z"), into: history + [Self.run("2026-11-19T19:00:00Z")], habits: [h], now: now + 7200, engine: Self.engine).isEmpty)
        expectEqual(HabitReport.events(saving: Self.run("2026-11-19T19:00:00Z"), into: [], habits: [h], now: now, engine: Self.engine).map(\.name), ["habit.done"])
    }

    @Test func atRiskLineAndNotice() {
        let h = Habit(name: "run 3x", activities: [.running], target: .count(3), per: .week)
        let risk = HabitAtRisk(habit: h, period: StreakDay(iso: "2026-11-16")!, streak: HabitStreak(start: StreakDay(iso: "2026-10-26")!, end: StreakDay(iso: "2026-11-15")!, length: 3, skips: 0, total: 9),
                               left: 1, daysToGo: 2, minutesLeft: 300)
        let e = HabitLogEvent.atRisk(risk)
        expectEqual(e.message, "run 3x: 1 run left this week, 2 days to go (streak of 3 weeks)")
        let line = Logfmt.render(e, style: .journald, timestamp: 0)
        expectEqual(line, "<5>run 3x: 1 run left this week, 2 days to go (streak of 3 weeks) event=habit.at_risk level=notice habit=\"run 3x\" per=week left=1 left_text=\"1 run left this week\" days_to_go=2 minutes_left=300 length=3 period=2026-11-16")
        let n = DesktopNotice.forEvent(e, chosen: ["habit.at_risk"])
        expectEqual(n, DesktopNotice(kind: "at-risk", summary: "run 3x at risk", body: "1 run left this week, 2 days to go. Keep your streak of 3 weeks.", urgency: .normal))
        expectNil(DesktopNotice.forEvent(e, chosen: ["workout.saved"]))
        // The last day: critical, with the time left.
        var last = risk; last.daysToGo = 1; last.minutesLeft = 95
        let l = HabitLogEvent.atRisk(last)
        expectEqual(DesktopNotice.forEvent(l, chosen: ["*"])?.body, "1 run left this week, today is the last day (1 h 35 min left). Keep your streak of 3 weeks.")
    }

    /// An event the notices know only by name and message.
    struct Line: LogEvent {
        var name: String
        var message: String
        var level: LogLevel { .info }
        var fields: [(String, LogValue)] { [] }
    }

    @Test func noticesForOtherEvents() {
        var summary = WorkoutSummary(id: WorkoutID(start: 1_795_000_000, suffix: 1), activity: .running, startedAt: 1_795_000_000)
        summary.distanceMeters = 5023.4
        summary.elapsedSeconds = 1694.2
        expectEqual(DesktopNotice.saved(summary, units: .metric), DesktopNotice(kind: "saved", summary: "Workout saved", body: "Running: 5.02 km in \(formatDuration(1694))", urgency: .low))
        let day = StreakDay(iso: "2026-11-19")!
        let streak = StreakLogEvent.atRisk(StreakAtRisk(day: day, streak: DayStreak(start: StreakDay(iso: "2026-11-13")!, end: StreakDay(iso: "2026-11-18")!, days: 6, restDays: 0), minutesLeft: 330))
        let risk = DesktopNotice.forEvent(streak, chosen: ["streak.at_risk"])
        #expect(risk?.kind == "at-risk" && risk?.body == "No workout yet today: 5 h 30 min left to keep your 6-day streak.")
        expectEqual(DesktopNotice.forEvent(Line(name: "record.personal_best", message: "New personal best: 5 km running in 0:22:10"), chosen: ["record.personal_best"])?.kind, "best")
        expectEqual(DesktopNotice.forEvent(Line(name: "gps.signal_lost", message: "GPS signal lost"), chosen: ["gps.signal_lost"])?.summary, "GPS problem")
        expectNil(DesktopNotice.forEvent(Line(name: "notify.unavailable", message: "x"), chosen: ["*"]))
    }
}
