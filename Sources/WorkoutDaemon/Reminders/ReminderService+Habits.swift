import WorkoutCore

/// Habits and totals: the engine evaluates, the service logs what it returns.
extension ReminderService {
    func habitEngine() -> HabitEngine { HabitEngine(calendar: streakCalculator().0.calendar) }

    /// One entry per configured habit for the `streak` reply (docs/streaks.md, "JSON").
    func habits(history: [StreakWorkout], now t: Double) -> [StreakReply.Habit] {
        let engine = habitEngine()
        return config.habits.map { h in
            let s = engine.status(h, history: history, now: t)
            let risk = HabitRiskCheck.evaluate(s, now: t, engine: engine, defaultRemindMinute: config.streaks.reminderHour * 60, lastWarnedPeriod: nil)
            var atRisk = false
            if case .warn = risk { atRisk = true }
            return StreakReply.Habit(
                name: h.name, per: h.per.rawValue, activities: h.activities.map(\.rawValue).sorted(), kind: h.target.kind,
                target: s.target, progress: s.progress, left: s.left,
                leftText: HabitText.left(h, s.left, units: UnitFormatter(config.units)) + " left", done: s.done,
                dueToday: s.dueToday, daysToGo: s.dueDaysLeft, periodStart: s.periodStart.iso, periodEnd: s.periodEnd.iso,
                current: s.current?.length ?? 0, best: s.best?.length ?? 0, currentStart: s.current?.start.iso,
                currentEnd: s.current?.end.iso, bestStart: s.best?.start.iso, bestEnd: s.best?.end.iso,
                skipsUsed: s.current?.skips ?? 0, skipAvailable: s.coverable, atRisk: atRisk)
        }
    }

    /// Each habit's at-risk warning, once per period (called with the daily streak's check).
    func checkHabitRisks() {
        guard !config.habits.isEmpty else { return }
        let engine = habitEngine()
        let history = streakHistory()
        let t = now()
        for h in config.habits {
            let s = engine.status(h, history: history, now: t)
            switch HabitRiskCheck.evaluate(s, now: t, engine: engine, defaultRemindMinute: config.streaks.reminderHour * 60,
                                           lastWarnedPeriod: habitWarnings[h.name]) {
            case .warn(var risk):
                habitWarnings[h.name] = risk.period
                risk.units = UnitFormatter(config.units)
                log(HabitLogEvent.atRisk(risk))
            case .quiet:
                break
            }
        }
    }

    /// `habit.done` and `habit.best` for a saved workout.
    func announceHabitsAfterSave(_ w: RecordedWorkout) {
        guard !config.habits.isEmpty else { return }
        for e in HabitReport.events(saving: StreakWorkout(w.summary), into: streakHistory(excluding: w.id), habits: config.habits,
                                    now: now(), engine: habitEngine()) { log(e) }
    }

    /// The `totals` reply: this and the previous period from the saved summaries.
    func totalsJSON(_ per: TotalsPeriod, activity: ActivityType?) -> JSON {
        PeriodTotals(summaries: store.summaries(), per: per, activity: activity, now: now(), calendar: streakCalculator().0.calendar).json()
    }
}
