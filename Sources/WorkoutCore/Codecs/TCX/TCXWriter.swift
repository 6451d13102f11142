#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a workout as a Training Center Database v2 file, valid against TCX v2 with
/// ActivityExtension v2 (`../shared/schemas/tcx2+ax2.xsd`).
///
/// - One `<Activity Sport=...>` from `activity.tcxSport`, `<Id>` = the start time.
/// - One `<Lap>` per `LapSummary` with its totals (TotalTimeSeconds = the lap's elapsed time,
///   which excludes manual pauses); a workout without laps gets one lap with the workout's
///   totals. A lap's average and maximum heart rate come from the summary when set, else from
///   its points; its cadence is the average of its points' cadences.
/// - Each point of the recorded track (`TrackPoint.isOnTrack`: accepted, or stationary jitter)
///   goes to the lap whose time range holds it: the last lap starting at or before the point
///   (points before the first lap go to the first). Inside a lap a new `<Track>` starts where
///   `TrackPoint.segment` changes. Fixes rejected for quality are not written.
/// - Trackpoints carry Time, Position, AltitudeMeters, DistanceMeters (the workout's measured
///   distance up to the point, `MeasuredDistance`: flat while standing still, nothing across the
///   jump between two segments), HeartRateBpm, Cadence (bikes; `RunCadence` in the extension for
///   running) and the extension's Speed and Watts (the fix's power).
public enum TCXWriter {
    /// The distance between two fixes used for the cumulative DistanceMeters. The default is a
    /// great-circle (haversine) distance; pass the daemon's geodesic distance to match its totals.
    public typealias DistanceFunction = (Fix, Fix) -> Double

    /// The TCX document as UTF-8 bytes.
    public static func write(_ workout: Workout, distance: DistanceFunction = TCXWriter.greatCircleDistance) -> [UInt8] {
        let summary = workout.summary
        let points = workout.points
        let sport = workout.activity.tcxSport
        var laps = summary.laps.sorted { $0.startTime < $1.startTime }
        if laps.isEmpty {
            let end = summary.endedAt ?? points.last(where: \.isOnTrack)?.fix.time ?? summary.startedAt
            laps = [LapSummary(index: 0, trigger: .end, startTime: summary.startedAt, endTime: end,
                               elapsedSeconds: summary.timerSeconds, movingSeconds: summary.movingSeconds,
                               distanceMeters: summary.distanceMeters, elevationGainMeters: summary.elevationGainMeters,
                               maxSpeed: summary.maxSpeed, calories: summary.calories ?? 0)]
        }

        // Points of each lap, and the measured distance up to each point of the track.
        var byLap = [[Int]](repeating: [], count: laps.count)
        var cumulative = [Double](repeating: 0, count: points.count)
        var measured = MeasuredDistance()
        for i in points.indices {
            let measuredTotal = measured.add(points[i], distance: distance)
            guard points[i].isOnTrack else { continue }
            // A device's or sensor's distance is the workout's: the trackpoint carries its reading.
            cumulative[i] = workout.odometer.isEmpty ? measuredTotal
                : min(workout.odometer.meters(at: points[i].fix.time) ?? 0, workout.summary.distanceMeters)
            let t = points[i].fix.time
            let lo = laps.endOfTimes(atOrBefore: t, time: \.startTime)
            byLap[max(lo - 1, 0)].append(i)
        }

        var out = XMLOutput(capacity: 2048 + points.count * 420)
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append("<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd http://www.garmin.com/xmlschemas/ActivityExtension/v2 http://www.garmin.com/xmlschemas/ActivityExtensionv2.xsd\">\n")
        out.append(" <Activities>\n  <Activity Sport=\"")
        out.appendEscaped(sport.rawValue)
        out.append("\">\n   <Id>")
        out.appendTime(summary.startedAt)
        out.append("</Id>\n")
        // A workout without a track (yoga, an indoor ride or run) still has its heart rate and
        // sensor readings: trackpoints without a position (`indoorRecords`), each in the lap that
        // holds its time.
        var indoor = [[IndoorRecord]](repeating: [], count: laps.count)
        if !points.contains(where: \.isOnTrack) {
            for r in workout.indoorRecords where r.heartRate != nil || r.power != nil || r.cadence != nil || r.speed != nil || r.distance != nil {
                let k = laps.lastIndex { $0.startTime <= r.time } ?? 0
                indoor[k].append(r)
            }
        }
        for (k, lap) in laps.enumerated() {
            writeLap(lap, byLap[k], points, cumulative, sport, &out, indoor: indoor[k], cadenceFactor: workout.activity.cadenceFactor)
        }
        // The title and notes as the activity's Notes (TCX has no title of its own).
        let notes = [summary.title, summary.notes].compactMap { $0 }
        if !notes.isEmpty {
            out.append("   <Notes>")
            out.appendEscaped(notes.joined(separator: "\n\n"))
            out.append("</Notes>\n")
        }
        out.append("  </Activity>\n </Activities>\n</TrainingCenterDatabase>\n")
        return out.takeBytes()
    }

    /// The TCX document as a string.
    public static func string(_ workout: Workout, distance: DistanceFunction = TCXWriter.greatCircleDistance) -> String {
        String(decoding: write(workout, distance: distance), as: UTF8.self)
    }

    /// Haversine distance in metres on a sphere of the mean Earth radius (6,371,008.8 m).
    public static func greatCircleDistance(_ a: Fix, _ b: Fix) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(a.latitude * rad) * cos(b.latitude * rad) * s2 * s2
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    private static func writeLap(_ lap: LapSummary, _ indices: [Int], _ points: [TrackPoint], _ cumulative: [Double],
                                 _ sport: TCXSport, _ out: inout XMLOutput, indoor: [IndoorRecord] = [], cadenceFactor: Double = 1) {
        var hrSum = 0, hrCount = 0, hrMax = 0, cadSum = 0, cadCount = 0
        for i in indices {
            if let hr = points[i].fix.heartRate, (1...255).contains(hr) { hrSum += hr; hrCount += 1; hrMax = max(hrMax, hr) }
            if let cad = points[i].fix.cadence, (0...254).contains(cad) { cadSum += cad; cadCount += 1 }
        }
        let averageHR = lap.averageHeartRate ?? (hrCount > 0 ? Int((Double(hrSum) / Double(hrCount)).rounded()) : nil)
        let maxHR = lap.maxHeartRate ?? (hrCount > 0 ? hrMax : nil)

        out.append("   <Lap StartTime=\"")
        out.appendTime(lap.startTime)
        out.append("\">\n    <TotalTimeSeconds>")
        out.appendFixed(max(lap.elapsedSeconds, 0), decimals: 3)
        out.append("</TotalTimeSeconds>\n    <DistanceMeters>")
        out.appendFixed(max(lap.distanceMeters, 0), decimals: 2)
        out.append("</DistanceMeters>\n")
        if lap.maxSpeed > 0, lap.maxSpeed.isFinite {
            out.append("    <MaximumSpeed>")
            out.appendFixed(lap.maxSpeed, decimals: 3)
            out.append("</MaximumSpeed>\n")
        }
        out.append("    <Calories>")
        out.appendInt(lap.calories.isFinite ? Int(min(max(lap.calories.rounded(), 0), 65535)) : 0)
        out.append("</Calories>\n")
        if let averageHR, (1...255).contains(averageHR) {
            out.append("    <AverageHeartRateBpm><Value>")
            out.appendInt(averageHR)
            out.append("</Value></AverageHeartRateBpm>\n")
        }
        if let maxHR, (1...255).contains(maxHR) {
            out.append("    <MaximumHeartRateBpm><Value>")
            out.appendInt(maxHR)
            out.append("</Value></MaximumHeartRateBpm>\n")
        }
        out.append("    <Intensity>Active</Intensity>\n")
        // A lap's cadence is in steps for a run (the summary's); the file's is one foot's.
        let lapCadence = cadCount > 0 ? Int((Double(cadSum) / Double(cadCount)).rounded())
            : (indoor.isEmpty ? nil : lap.averageCadence.map { Int((Double($0) / cadenceFactor).rounded()) })
        if let lapCadence, lapCadence >= 0 {
            out.append("    <Cadence>")
            out.appendInt(min(lapCadence, 254))
            out.append("</Cadence>\n")
        }
        out.append("    <TriggerMethod>")
        switch lap.trigger.tcxTriggerMethod {
        case "Distance": out.append("Distance")
        case "Time": out.append("Time")
        default: out.append("Manual")
        }
        out.append("</TriggerMethod>\n")
        var segment: Int?
        for i in indices {
            if points[i].segment != segment {
                if segment != nil { out.append("    </Track>\n") }
                out.append("    <Track>\n")
                segment = points[i].segment
            }
            writeTrackpoint(points[i].fix, cumulative[i], sport, &out)
        }
        if segment != nil { out.append("    </Track>\n") }
        if !indoor.isEmpty {
            out.append("    <Track>\n")
            for r in indoor {
                out.append("     <Trackpoint><Time>")
                out.appendTime(r.time)
                out.append("</Time>")
                if let d = r.distance, d.isFinite, d >= 0 {
                    out.element("<DistanceMeters>", fixed: d, decimals: 2, "</DistanceMeters>")
                }
                writeSensorValues(heartRate: r.heartRate, cadence: r.cadence, speed: r.speed, power: r.power, sport, &out)
                out.append("</Trackpoint>\n")
            }
            out.append("    </Track>\n")
        }
        out.append("   </Lap>\n")
    }

    private static func writeTrackpoint(_ f: Fix, _ distance: Double, _ sport: TCXSport, _ out: inout XMLOutput) {
        out.append("     <Trackpoint><Time>")
        out.appendTime(f.time)
        out.append("</Time><Position><LatitudeDegrees>")
        out.appendFixed(f.latitude, decimals: GPXWriter.coordinateDecimals)
        out.append("</LatitudeDegrees><LongitudeDegrees>")
        out.appendFixed(f.longitude, decimals: GPXWriter.coordinateDecimals)
        out.append("</LongitudeDegrees></Position>")
        if let ele = f.altitude, ele.isFinite {
            out.element("<AltitudeMeters>", fixed: ele, decimals: GPXWriter.elevationDecimals, "</AltitudeMeters>")
        }
        out.element("<DistanceMeters>", fixed: distance, decimals: 2, "</DistanceMeters>")
        writeSensorValues(heartRate: f.heartRate, cadence: f.cadence, speed: f.speed, power: f.power, sport, &out)
        out.append("</Trackpoint>\n")
    }

    /// HeartRateBpm, Cadence (bikes) and the extension's Speed, RunCadence (running) and Watts,
    /// each when present and in range, in the schema's order.
    private static func writeSensorValues(heartRate: Int?, cadence: Int?, speed: Double?, power: Int?, _ sport: TCXSport,
                                          _ out: inout XMLOutput) {
        if let hr = heartRate, (1...255).contains(hr) {
            out.append("<HeartRateBpm><Value>")
            out.appendInt(hr)
            out.append("</Value></HeartRateBpm>")
        }
        let cadence = cadence.flatMap { (0...254).contains($0) ? $0 : nil }
        if let cadence, sport != .running {
            out.element("<Cadence>", int: cadence, "</Cadence>")
        }
        let speed = speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let runCadence = sport == .running ? cadence : nil
        let watts = power.flatMap { (0...65535).contains($0) ? $0 : nil }
        if speed != nil || runCadence != nil || watts != nil {
            out.append("<Extensions><TPX xmlns=\"http://www.garmin.com/xmlschemas/ActivityExtension/v2\">")
            if let speed {
                out.element("<Speed>", fixed: speed, decimals: 3, "</Speed>")
            }
            if let runCadence {
                out.element("<RunCadence>", int: runCadence, "</RunCadence>")
            }
            if let watts {
                out.element("<Watts>", int: watts, "</Watts>")
            }
            out.append("</TPX></Extensions>")
        }
    }

}
