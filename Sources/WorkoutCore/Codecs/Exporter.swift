/// One entry point for `export`: the workout in the requested format, as text.
public enum Exporter {
    public static func export(_ w: Workout, _ format: ExportFormat) -> String {
        switch format {
        case .gpx: return String(decoding: GPXWriter.write(w), as: UTF8.self)
        case .tcx: return String(decoding: TCXWriter.write(w), as: UTF8.self)
        case .json: return String(decoding: WorkoutFile.encode(w), as: UTF8.self)
        }
    }
}
