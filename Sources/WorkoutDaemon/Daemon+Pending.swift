import WorkoutCore
// TEMPORARY: filled in when the metrics, formats and streaks branches merge.
extension MetricsSettings { init(config: Config) { self.init() } }
struct RecorderLogEvent: LogEvent {
    var name = "recorder"; var message = ""; var fields: [(String, LogValue)] = []
    init?(_ e: RecorderEvent, id: WorkoutID?) { return nil }
}
enum Exporter { static func export(_ w: Workout, _ f: ExportFormat) -> String { String(decoding: WorkoutFile.encode(w), as: UTF8.self) } }
extension Daemon {
    func importFile(_ path: String, activity: ActivityType?) -> JSON { ["file": .string(path), "id": .null, "result": "error", "error": "import not yet supported"] }
}
