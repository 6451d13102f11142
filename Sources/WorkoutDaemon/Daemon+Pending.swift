import WorkoutCore
// TEMPORARY: filled in when the metrics, formats and streaks branches merge.
extension MetricsSettings { init(config: Config) { self.init() } }
struct RecorderLogEvent: LogEvent {
    var name = "recorder"; var message = ""; var fields: [(String, LogValue)] = []
    init?(_ e: RecorderEvent, id: WorkoutID?) { return nil }
}

