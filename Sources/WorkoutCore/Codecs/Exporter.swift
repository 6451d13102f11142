/// One entry point for `export`: the workout in the requested format, as text.
public enum Exporter {
    public static func export(_ workout: Workout, _ format: ExportFormat) -> String {
        var w = workout
        switch format {
        case .gpx, .tcx: w.points = workout.pointsWithHeartRate
        case .json: break
        }
        switch format {
        case .gpx: return String(decoding: GPXWriter.write(w), as: UTF8.self)
        case .tcx:
            let g = Geodesic.wgs84
            return String(decoding: TCXWriter.write(w, distance: { g.distance(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: $1.latitude, longitude2: $1.longitude) }), as: UTF8.self)
        case .json: return String(decoding: WorkoutFile.encode(w), as: UTF8.self)
        }
    }
}
