import Testing
@testable import WorkoutCore

/// Hand-checked cases of docs/streaks.md ("Habits"), UTC unless named; 2026-11-16 is a Monday.
@Suite struct HabitEngineTests {
    static let engine = HabitEngine(calendar: HabitCalendar(zone: .utc))
    static func t(_ s: String) -> Double { ISO8601.parse(s)! }
    static func run(_ s: String, _ minutes: Double = 40, km: Double = 8, _ a: ActivityType = .running) -> StreakWorkout {
        StreakWorkout(startedAt: t(s), durationSeconds: minutes * 60, activity: a, distanceMeters: km * 1000)
    }

    @Test func threeRunsAWeek() {
        let h = Habit(name: "r", activities: [.running], target: .count(3), per: .week)
        let history = ["2026-11-02T07:00:00Z", "2026-11-04T07:00:00Z", "2026-11-06T07:00:00Z",   // week of the 2nd: 3
                       "2026-11-09T07:00:00Z", "2026-11-10T07:00:00Z", "2026-11-10T18:00:00Z",   // week of the 9th: 3
                       "2026-11-17T07:00:00Z"].map { Self.run($0) } + [Self.run("2026-11-18T07:00:00Z", 40, km: 8, .cycling)]
        let s = Self.engine.status(h, history: history, now: Self.t("2026-11-19T12:00:00Z"))
        #expect(s.progress == 1 && !s.done && s.left == 2 && s.dueDaysLeft == 4)
        #expect(s.periodStart.iso == "2026-11-16" && s.periodEnd.iso == "2026-11-22")
        expectEqual(s.current, HabitStreak(start: StreakDay(iso: "2026-11-02")!, end: StreakDay(iso: "2026-11-15")!, length: 2, skips: 0, total: 6))
        // Two days later, 2 runs left and 2 days to go: urgent from the reminder hour.
        let sat = Self.t("2026-11-21T18:30:00Z")
        let s2 = Self.engine.status(h, history: history, now: sat)
        guard case .warn(let w) = HabitRiskCheck.evaluate(s2, now: sat, engine: Self.engine, defaultRemindMinute: 18 * 60, lastWarnedPeriod: nil) else {
            Issue.record("expected a warning"); return
        }
        expectEqual(w.leftText, "2 runs left this week")
        expectEqual(HabitText.daysToGo(w.daysToGo), "2 days to go")
        expectEqual(w.minutesLeft, 330)
        expectEqual(HabitRiskCheck.evaluate(s2, now: sat, engine: Self.engine, defaultRemindMinute: 18 * 60, lastWarnedPeriod: w.period), .quiet(.alreadyWarned))
        expectEqual(HabitRiskCheck.evaluate(s2, now: sat - 3600, engine: Self.engine, defaultRemindMinute: 18 * 60, lastWarnedPeriod: nil), .quiet(.beforeReminder))
        expectEqual(HabitRiskCheck.evaluate(s, now: Self.t("2026-11-19T12:00:00Z"), engine: Self.engine, defaultRemindMinute: 0, lastWarnedPeriod: nil), .quiet(.notUrgent))
    }

    @Test func distanceGoalSumsThePeriod() {
        let h = Habit(name: "50k", target: .distance(meters: 50_000), per: .week)
        let history = (0..<5).map { Self.run("2026-11-0\($0 + 2)T07:00:00Z", km: 10) } + [Self.run("2026-11-16T07:00:00Z", km: 12.5)]
        let s = Self.engine.status(h, history: history, now: Self.t("2026-11-17T12:00:00Z"))
        #expect(s.progress == 12_500 && s.left == 37_500 && s.best?.length == 1 && s.best?.total == 50_000)
        expectNil(s.current)  // the week of the 9th had nothing
        expectEqual(HabitText.left(h, s.left), "37.5 km")
    }

    @Test func sundaysOnlyAndWindows() {
        // A long ride on Sundays: the days between are not due and break nothing.
        let ride = Habit(name: "long", activities: [.cycling], per: .day, minimumMeters: 50_000, weekdays: [0])
        let rides = ["2026-11-01T08:00:00Z", "2026-11-08T08:00:00Z", "2026-11-15T08:00:00Z"].map { Self.run($0, 180, km: 80, .cycling) }
        let s = Self.engine.status(ride, history: rides + [Self.run("2026-11-11T08:00:00Z", 180, km: 80, .cycling)], now: Self.t("2026-11-20T12:00:00Z"))
        #expect(s.current?.length == 3 && s.current?.end.iso == "2026-11-15" && !s.dueToday && s.dueDaysLeft == 0)
        // The Sunday after without a ride ends it.
        expectNil(Self.engine.status(ride, history: rides, now: Self.t("2026-11-23T12:00:00Z")).current)
        // An evening window: a morning session does not count.
        let yoga = Habit(name: "y", activities: [.yoga], per: .day, window: HabitWindow(fromMinute: 18 * 60, toMinute: 22 * 60))
        let y = Self.engine.status(yoga, history: [Self.run("2026-11-19T19:00:00Z", 30, km: 0, .yoga), Self.run("2026-11-20T07:00:00Z", 30, km: 0, .yoga)],
                                   now: Self.t("2026-11-20T20:59:00Z"))
        #expect(y.progress == 0 && y.current?.length == 1)
        // Reminder 1 h (the default need) before the window closes; quiet once it closed.
        #expect(HabitRiskCheck.timing(yoga, engine: Self.engine, defaultRemindMinute: 18 * 60) == (21 * 60, 22 * 60))
        if case .warn(let w) = HabitRiskCheck.evaluate(y, now: Self.t("2026-11-20T21:00:00Z"), engine: Self.engine, defaultRemindMinute: 0, lastWarnedPeriod: nil) {
            expectEqual(w.minutesLeft, 60)
            expectEqual(w.leftText, "1 yoga session left today")
        } else { Issue.record("expected a warning at 21:00") }
        expectEqual(HabitRiskCheck.evaluate(y, now: Self.t("2026-11-20T20:59:00Z"), engine: Self.engine, defaultRemindMinute: 0, lastWarnedPeriod: nil), .quiet(.beforeReminder))
        expectEqual(HabitRiskCheck.evaluate(y, now: Self.t("2026-11-20T22:00:00Z"), engine: Self.engine, defaultRemindMinute: 0, lastWarnedPeriod: nil), .quiet(.windowClosed))
    }

    @Test func skipsPerWeekKeepTheStreak() {
        let h = Habit(name: "d", per: .day, skips: 1)
        let days = ["16", "17", "18", "19", "20", "22", "24"].map { Self.run("2026-11-\($0)T07:00:00Z") }  // 21 and 23 skipped
        let s = Self.engine.status(h, history: days, now: Self.t("2026-11-25T20:00:00Z"))
        #expect(s.current?.length == 7 && s.current?.skips == 2 && s.current?.end.iso == "2026-11-24")
        // The 23rd used this week's skip, so the 25th is not coverable: at risk.
        #expect(!s.coverable)
        expectNil(Self.engine.status(h, history: days, now: Self.t("2026-11-26T00:00:00Z")).current)
    }

    @Test func monthlyCountAndMonthBoundaries() {
        let h = Habit(name: "m", target: .count(2), per: .month)
        let history = ["2026-10-30T23:30:00Z", "2026-10-31T23:30:00Z", "2026-11-01T00:30:00Z", "2026-11-15T00:30:00Z"].map { Self.run($0) }
        let s = Self.engine.status(h, history: history, now: Self.t("2026-11-30T23:59:59Z"))
        #expect(s.periodStart.iso == "2026-11-01" && s.periodEnd.iso == "2026-11-30" && s.done && s.current?.length == 2)
        // With the day starting at 03:00, 00:30 on Nov 1 counts for October 31.
        let e3 = HabitEngine(calendar: HabitCalendar(zone: .utc, dayStartHour: 3))
        let s3 = e3.status(h, history: history, now: Self.t("2026-11-30T23:59:59Z"))
        #expect(s3.progress == 1 && s3.best?.total == 3 && s3.current?.length == 1)
    }

    /// The built-in daily and weekly streaks are habits with the streak settings.
    @Test func builtInsAreHabits() {
        let s = StreakSettings(minimumWorkoutSeconds: 300, restDaysPerWeek: 2, weeklyTarget: 3, riskWarningHour: 20)
        expectEqual(Habit.builtInDaily(s), Habit(name: "daily", per: .day, minimumSeconds: 300, skips: 2, remindAtMinute: 1200))
        expectEqual(Habit.builtInWeekly(s), Habit(name: "weekly", target: .count(3), per: .week, minimumSeconds: 300, remindAtMinute: 1200))
    }
}
