import Testing
@testable import WorkoutCore

/// Issue 40's calendar: a past year shows that year's own streaks (not today's), and each day
/// lists its workouts.
@Suite struct CalendarPageTests {
    static func run(_ day: StreakDay, title: String? = nil) -> WorkoutSummary {
        let t = Double(day.dayNumber) * 86_400 + 8 * 3600
        var s = WorkoutSummary(id: WorkoutID(start: t, suffix: 0x40), activity: .running, startedAt: t, endedAt: t + 1800,
                               elapsedSeconds: 1800, movingSeconds: 1800, distanceMeters: 5000)
        s.title = title
        return s
    }

    @Test func aPastYearShowsItsOwnStreaksAndEachDayItsWorkouts() {
        let c = WebFixtures.context  // now: 2026-11-19
        let march = StreakDay(year: 2025, month: 3, day: 1), december = StreakDay(year: 2025, month: 12, day: 29)
        var all = (0..<10).map { Self.run(march.adding(days: $0)) } + (0..<3).map { Self.run(december.adding(days: $0)) }
        all.append(Self.run(StreakDay(year: 2025, month: 6, day: 7), title: "Lake loop"))
        all += (0..<25).map { Self.run(StreakDay(year: 2026, month: 10, day: 20).adding(days: $0)) }  // 25 days this year

        let past = CalendarPage.streaks(year: 2025, summaries: all, calendar: c.calendar, now: c.now)
        expectEqual(past.bestDaily?.days, 10)
        expectEqual(past.currentDaily?.days, 3)  // 29-31 December, as the year ended
        let html = WebFixtures.text(CalendarPage(summaries: all, year: 2025, streaks: past, habits: []).render(c))
        #expect(html.contains("Streaks in 2025") && html.contains("<b>10 days</b><span>Best daily streak"), "\(html)")
        #expect(!html.contains("Current daily streak") && !html.contains("Workouts this week"))
        #expect(html.contains("· Lake loop 5.00 km"), "the day's title lists its workout")

        let now = CalendarPage.streaks(year: nil, summaries: all, calendar: c.calendar, now: c.now)
        expectEqual(now.bestDaily?.days, 25)
        #expect(WebFixtures.text(CalendarPage(summaries: all, year: nil, streaks: now, habits: []).render(c)).contains("Current daily streak"))
    }
}
