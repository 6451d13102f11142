/// One entry point for `export`: the workout in the requested format.
public enum Exporter {
    /// The file's bytes: GPX, TCX, workoutd's JSON, or FIT. GPX/TCX/FIT hold every point of the
    /// recorded track (`TrackPoint.isOnTrack`); TCX/FIT per-point distances are the workout's
    /// measured distance up to the point (`MeasuredDistance` with the WGS84 geodesic, the
    /// daemon's own), so they stay flat while standing still and the last one is the total.
    /// Heart rate, power and cadence recorded beside the fixes (Bluetooth sensors) are put on the
    /// points for GPX, TCX and FIT.
    public static func bytes(_ workout: Workout, _ format: ExportFormat) -> [UInt8] {
        var w = workout
        switch format {
        case .gpx, .tcx, .fit: w.points = workout.pointsWithSensors(workout.pointsWithHeartRate)
        case .json: break
        }
        switch format {
        case .gpx: return GPXWriter.write(w)
        case .tcx: return TCXWriter.write(w, distance: geodesic)
        case .json: return WorkoutFile.encode(w)
        case .fit: return FITWriter.write(w, distance: geodesic)
        }
    }

    /// `bytes(workout, format)` handed to `drain` a piece at a time: GPX is written through a
    /// 1 MB buffer (`GPXWriter.write(_:options:chunk:drain:)`), the other formats whole. Returns
    /// the length written.
    @discardableResult
    public static func write(_ workout: Workout, _ format: ExportFormat, drain: (UnsafeRawBufferPointer) -> Void) -> Int {
        switch format {
        case .gpx:
            var w = workout
            w.points = workout.pointsWithSensors(workout.pointsWithHeartRate)
            return GPXWriter.write(w, drain: drain)
        case .tcx, .json, .fit:
            let b = bytes(workout, format)
            b.withUnsafeBytes(drain)
            return b.count
        }
    }

    /// Why `workout` cannot be exported as `format` (nil: it can): GPX needs positions, so a
    /// workout without an accepted point is refused (TCX and FIT write its heart rate alone).
    public static func refusal(_ workout: Workout, _ format: ExportFormat) -> ExportRefusal? {
        switch format {
        case .gpx:
            guard !workout.points.contains(where: \.isAccepted) else { return nil }
            return .gpxNeedsPositions(activity: workout.activity, hasHeartRate: workout.heartRate.samples.contains { $0.bpm != nil })
        case .tcx, .json, .fit:
            return nil
        }
    }

    /// The export as text for the control socket's JSON reply: the file itself for the text
    /// formats, base64 (RFC 4648) for FIT (`ExportFormat.isBinary`).
    public static func export(_ w: Workout, _ format: ExportFormat) -> String {
        let b = bytes(w, format)
        return format.isBinary ? Base64.encode(b) : String(decoding: b, as: UTF8.self)
    }

    static func geodesic(_ a: Fix, _ b: Fix) -> Double { MeasuredDistance.geodesic(a, b) }
}
