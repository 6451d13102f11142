import Testing
@testable import WorkoutCore

/// The worked examples of docs/streaks.md.
@Suite struct StreakCalculatorTests {
    /// 2026-11-16 is a Monday. Times are UTC; the zone is UTC unless a test says otherwise.
    static func at(_ s: String) -> Double { ISO8601.parse(s)! }
    static func w(_ s: String, minutes: Double = 30, offset: Int? = nil) -> StreakWorkout {
        StreakWorkout(startedAt: at(s), durationSeconds: minutes * 60, utcOffset: offset)
    }
    let utc = StreakCalculator(zone: .utc)

    @Test func consecutiveDaysAndTodayInProgress() {
        let h = [Self.w("2026-11-16T07:00:00Z"), Self.w("2026-11-17T07:00:00Z"), Self.w("2026-11-18T21:00:00Z")]
        // Thursday morning: today not done yet, yesterday was: still current.
        let s = utc.status(history: h, now: Self.at("2026-11-19T10:00:00Z"))
        expectEqual(s.currentDaily, DayStreak(start: StreakDay(iso: "2026-11-16")!, end: StreakDay(iso: "2026-11-18")!, days: 3, restDays: 0))
        #expect(!s.todayDone)
        // Friday: Thursday was missed, the streak is over; best remains.
        let f = utc.status(history: h, now: Self.at("2026-11-20T00:00:00Z"))
        expectNil(f.currentDaily)
        expectEqual(f.bestDaily?.days, 3)
    }

    @Test func shortWorkoutsDoNotCount() {
        let h = [Self.w("2026-11-16T07:00:00Z", minutes: 9.99), Self.w("2026-11-17T07:00:00Z", minutes: 10)]
        let s = utc.status(history: h, now: Self.at("2026-11-17T08:00:00Z"))
        expectEqual(s.currentDaily?.days, 1)
        expectEqual(s.currentDaily?.start.iso, "2026-11-17")
    }

    @Test func dayStartHourMovesEarlyWorkoutsToThePreviousDay() {
        let c = StreakCalculator(settings: StreakSettings(dayStartHour: 3), zone: .utc)
        // 01:00 on Tuesday counts for Monday; 03:00 on Tuesday counts for Tuesday.
        expectEqual(c.day(of: Self.at("2026-11-17T01:00:00Z")).iso, "2026-11-16")
        expectEqual(c.day(of: Self.at("2026-11-17T03:00:00Z")).iso, "2026-11-17")
        let h = [Self.w("2026-11-16T20:00:00Z"), Self.w("2026-11-18T01:30:00Z")]
        let s = c.status(history: h, now: Self.at("2026-11-18T02:00:00Z"))
        expectEqual(s.today.iso, "2026-11-17")
        expectEqual(s.currentDaily?.days, 2)
    }

    @Test func restDaysKeepButDoNotExtend() {
        let c = StreakCalculator(settings: StreakSettings(restDaysPerWeek: 1), zone: .utc)
        // Mon, Tue, (Wed rest), Thu, Fri, (Sat rest? no: second rest day this week) Sun.
        let h = ["16", "17", "19", "20", "22"].map { Self.w("2026-11-\($0)T07:00:00Z") }
        let s = c.status(history: h, now: Self.at("2026-11-22T20:00:00Z"))
        expectEqual(s.currentDaily, DayStreak(start: StreakDay(iso: "2026-11-22")!, end: StreakDay(iso: "2026-11-22")!, days: 1, restDays: 0))
        expectEqual(s.bestDaily, DayStreak(start: StreakDay(iso: "2026-11-16")!, end: StreakDay(iso: "2026-11-20")!, days: 4, restDays: 1))
        // One rest day in each of two weeks: Sat 21 (week of 16th) and Mon 23 (next week) -> fine.
        let h2 = ["16", "17", "18", "19", "20", "22", "24"].map { Self.w("2026-11-\($0)T07:00:00Z") }
        let s2 = c.status(history: h2, now: Self.at("2026-11-24T20:00:00Z"))
        expectEqual(s2.currentDaily?.days, 7)
        expectEqual(s2.currentDaily?.restDays, 2)
        // Wednesday 25 without a workout yet: Monday 23 used this week's rest day, so missing
        // today would end the streak.
        let s3 = c.status(history: h2, now: Self.at("2026-11-25T20:00:00Z"))
        #expect(!s3.todayCoverable)
        expectEqual(s3.currentDaily?.days, 7)
        // With Monday 23 done instead, this week's rest day is still free for Tuesday.
        let h4 = ["16", "17", "18", "19", "20", "22", "23"].map { Self.w("2026-11-\($0)T07:00:00Z") }
        #expect(c.status(history: h4, now: Self.at("2026-11-24T20:00:00Z")).todayCoverable)
    }

    @Test func weeklyStreak() {
        let c = StreakCalculator(settings: StreakSettings(weeklyTarget: 2), zone: .utc)
        // Weeks of Nov 2, 9 (one workout only), 16, 23.
        let h = ["02", "04", "10", "16", "18", "23"].map { Self.w("2026-11-\($0)T07:00:00Z") }
        let s = c.status(history: h, now: Self.at("2026-11-24T12:00:00Z"))
        // This week has 1 of 2 so far: in progress, last week counts.
        expectEqual(s.currentWeekly, WeekStreak(start: StreakDay(iso: "2026-11-16")!, end: StreakDay(iso: "2026-11-22")!, weeks: 1, workouts: 2))
        expectEqual(s.workoutsThisWeek, 1)
        expectEqual(s.bestWeekly?.start.iso, "2026-11-02")
        let sunday = StreakCalculator(settings: StreakSettings(weeklyTarget: 2, weekStart: .sunday), zone: .utc)
        expectEqual(sunday.firstDay(ofWeek: sunday.week(of: StreakDay(iso: "2026-11-21")!)).iso, "2026-11-15")
        let sat = StreakCalculator(settings: StreakSettings(weekStart: .saturday), zone: .utc)
        expectEqual(sat.firstDay(ofWeek: sat.week(of: StreakDay(iso: "2026-11-20")!)).iso, "2026-11-14")
    }

    /// Kiritimati is UTC+14: 2026-11-16T11:00Z is already the 17th there.
    @Test func zoneDecidesTheDateAndRecordedOffsetsWin() throws {
        let k = StreakCalculator(zone: ZoneRules(fixedOffset: 14 * 3600))
        expectEqual(k.day(of: Self.at("2026-11-16T11:00:00Z")).iso, "2026-11-17")
        // Recorded in New York (UTC-5) at 22:00 local on the 16th, viewed after moving to +14.
        expectEqual(k.day(of: Self.at("2026-11-17T03:00:00Z"), utcOffset: -5 * 3600).iso, "2026-11-16")
    }

    @Test func futureWorkoutsIgnoredAndStreakDayParsing() {
        let h = [Self.w("2026-11-16T07:00:00Z"), Self.w("2026-11-18T07:00:00Z")]
        let s = utc.status(history: h, now: Self.at("2026-11-16T08:00:00Z"))
        expectEqual(s.bestDaily?.days, 1)
        expectNil(StreakDay(iso: "2026-02-29"))
        expectEqual(StreakDay(iso: "2024-02-29")?.iso, "2024-02-29")
        expectNil(StreakDay(iso: "2024-2-29"))
        expectEqual(StreakCalculator(settings: StreakSettings(restDaysPerWeek: 40, weeklyTarget: 0), zone: .utc).settings.restDaysPerWeek, 6)
    }

    /// Absurd instants (corrupt imports) neither trap nor count.
    @Test func absurdInstants() {
        let h = [StreakWorkout(startedAt: 1e300, durationSeconds: 900), StreakWorkout(startedAt: -.infinity, durationSeconds: 900),
                 StreakWorkout(startedAt: .nan, durationSeconds: 900), StreakWorkout(startedAt: 0, durationSeconds: .nan)]
        expectNil(utc.status(history: h, now: 1e300).bestDaily)
        expectNil(utc.status(history: h, now: .nan).bestDaily)
        _ = StreakRiskCheck.evaluate(history: h, now: -1e300, calculator: utc, lastWarningDay: nil)
        #expect([3600, 7200].contains(ZoneRules(posix: "CET-1CEST,M3.5.0,M10.5.0/3")!.utcOffset(at: .infinity)))
    }
}
