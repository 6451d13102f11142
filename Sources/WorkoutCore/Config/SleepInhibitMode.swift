/// How workoutd keeps the machine awake while a workout records (config `sleepInhibitor`):
/// a logind inhibitor lock on sleep. `block` refuses suspends (polkit grants it only to
/// processes in a login session); `delay` lets the daemon flush its journal before a suspend
/// (granted to anyone); `off` takes no lock.
public enum SleepInhibitMode: String, CaseIterable, Sendable {
    case block, delay, off
}
