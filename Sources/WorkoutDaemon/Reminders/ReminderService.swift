import Glibc
import WorkoutCore

/// Streaks and habits: the zone comes from the config, $TZ or /etc/localtime; the pure
/// calculator and habit engine do the rest. Logged at start-up, on save, and once per day when
/// at risk; the `streak` and `totals` replies. Reads the saved summaries from the history store.
final class ReminderService: DaemonService {
    let context: DaemonContext
    let store: HistoryStore
    /// Zone rules for streak days (read from /usr/share/zoneinfo once, and on reload).
    private var zoneCache: (ZoneRules, String)?
    /// Seconds ticked since start-up.
    private var ticks = 0
    /// The streak day of the last "at risk" warning (once per day).
    private var lastRiskWarningDay: StreakDay?
    /// Per habit name, the first day of the period of its last at-risk warning.
    var habitWarnings: [String: StreakDay] = [:]

    /// The part of the configuration this service reads, its own: taken at start-up and
    /// replaced by `reload`.
    private(set) var config: Settings

    struct Settings: Equatable {
        var timeZone: String?
        var streaks: StreakConfig
        var habits: [Habit]
        var units: Units

        init(_ c: Config) { timeZone = c.timeZone; streaks = c.streaks; habits = c.habits; units = c.units }
    }

    init(context: DaemonContext, config c: Config, store: HistoryStore) {
        self.context = context
        self.store = store
        config = Settings(c)
    }

    func now() -> Double { context.now() }
    func log(_ e: some LogEvent) { context.log(e) }

    /// Once a second; the at-risk warnings are due once a day, so a minute is precise enough.
    func tick() {
        ticks &+= 1
        if ticks % 60 == 0 { checkStreakRisk() }
    }

    let name = "reminders"

    /// Nothing to open: the streak lines at start-up follow the daemon's `startedUp` line
    /// (`logAtStartup`).
    func start() {}

    func stop(by deadline: Double, then done: @escaping () -> Void) { done() }

    /// A reload: the zone is read again (the zone file may have changed too); the streak rules
    /// and habits are read where they are used.
    func reload(_ r: inout ConfigReload) {
        config = Settings(r.new)
        zoneCache = nil
        r.applied(.timeZone, .streaks, .habits)
    }

    /// The zone rules for streak days, read once and again after a reload.
    func streakZone() -> (ZoneRules, String) {
        if let cached = zoneCache { return cached }
        let z = loadStreakZone()
        zoneCache = z
        return z
    }

    private func loadStreakZone() -> (ZoneRules, String) {
        let name = config.timeZone ?? context.environment["TZ"].map { $0.hasPrefix(":") ? String($0.dropFirst()) : $0 }
        if let name, !name.isEmpty {
            let file = name.hasPrefix("/") ? name : "/usr/share/zoneinfo/" + name
            if !name.contains(".."), let bytes = try? readFile(file, limit: 1 << 20), let z = try? ZoneRules(tzif: bytes, name: name) { return (z, name) }
            if let z = ZoneRules(posix: name, name: name) { return (z, name) }
        }
        if let bytes = try? readFile("/etc/localtime", limit: 1 << 20), let z = try? ZoneRules(tzif: bytes, name: "localtime") { return (z, "localtime") }
        return (ZoneRules.utc, "UTC")
    }

    func streakCalculator() -> (StreakCalculator, String) {
        let (zone, name) = streakZone()
        let c = config.streaks
        let settings = StreakSettings(minimumWorkoutSeconds: c.minimumSeconds, dayStartHour: c.dayStartHour, restDaysPerWeek: c.restDaysPerWeek,
                                      weeklyTarget: c.weeklyTarget, weekStart: WeekStart(rawValue: c.weekStart) ?? .monday,
                                      riskWarningHour: c.reminderHour)
        return (StreakCalculator(settings: settings, zone: zone), name)
    }

    func streakHistory(excluding id: WorkoutID? = nil) -> [StreakWorkout] {
        store.streakWorkouts(excluding: id)
    }

    func streakJSON() -> JSON {
        let (calc, zone) = streakCalculator()
        let history = streakHistory()
        let s = calc.status(history: history, now: now())
        let daily = StreakReply.Daily(
            current: s.currentDaily?.days ?? 0, best: s.bestDaily?.days ?? 0, currentStart: s.currentDaily?.start.iso,
            currentEnd: s.currentDaily?.end.iso, bestStart: s.bestDaily?.start.iso, bestEnd: s.bestDaily?.end.iso,
            todayDone: s.todayDone, restDaysUsed: s.currentDaily?.restDays ?? 0)
        let weekly = StreakReply.Weekly(
            current: s.currentWeekly?.weeks ?? 0, best: s.bestWeekly?.weeks ?? 0, currentStart: s.currentWeekly?.start.iso,
            bestStart: s.bestWeekly?.start.iso, bestEnd: s.bestWeekly?.end.iso, workoutsThisWeek: s.workoutsThisWeek,
            target: config.streaks.weeklyTarget)
        return StreakReply(daily: daily, weekly: weekly, today: s.today.iso, timeZone: zone, habits: habits(history: history, now: now())).json()
    }

    func logAtStartup() {
        let (calc, zone) = streakCalculator()
        log(StreakLogEvent.summary(calc.status(history: streakHistory(), now: now()), zone: zone))
        checkStreakRisk()  // at once, not a minute later: a restart late in the day may be the last chance
    }

    /// Streak and habit news of a saved workout.
    func announceAfterSave(_ w: RecordedWorkout) {
        let (calc, _) = streakCalculator()
        let report = StreakReport(saving: StreakWorkout(w.summary, utcOffset: nil), into: streakHistory(excluding: w.id), now: now(), calculator: calc)
        for e in report.events { log(e) }
        announceHabitsAfterSave(w)
    }

    /// Once per local day, after the reminder hour, when today still lacks a workout.
    func checkStreakRisk() {
        let (calc, _) = streakCalculator()
        let t = now()
        switch StreakRiskCheck.evaluate(history: streakHistory(), now: t, calculator: calc, lastWarningDay: lastRiskWarningDay) {
        case .warn(let risk):
            lastRiskWarningDay = risk.day
            log(StreakLogEvent.atRisk(risk))
        case .quiet:
            break
        }
        checkHabitRisks()
    }
}
