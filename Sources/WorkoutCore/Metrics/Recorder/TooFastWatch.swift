/// Watches for fixes too fast for the activity: a run of `SpeedWarning.tooFastRun` in a row
/// makes the recorder check the recent median speed, and a warning once it is too fast as well.
/// Said once per workout.
enum TooFastWatch: Sendable {
    /// Counting fixes too fast in a row (`run`).
    case counting(run: Int)
    /// Warned: the warning stands for the rest of the workout.
    case warned(SpeedWarning)

    /// One more fix too fast: whether the run is long enough to check the recent speed.
    mutating func tooFast() -> Bool {
        switch self {
        case .counting(let run):
            self = .counting(run: run + 1)
            return run + 1 >= SpeedWarning.tooFastRun
        case .warned:
            return false
        }
    }

    /// A fix at a plausible speed: the run starts again.
    mutating func plausible() {
        switch self {
        case .counting: self = .counting(run: 0)
        case .warned: break
        }
    }

    /// The recent speed confirmed the run: the warning.
    mutating func warn(_ w: SpeedWarning) { self = .warned(w) }

    var warning: SpeedWarning? {
        switch self {
        case .counting: return nil
        case .warned(let w): return w
        }
    }
}
