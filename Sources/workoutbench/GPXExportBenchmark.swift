import WorkoutCore

/// `workoutbench nmea-gpx FILE OUT.gpx`: NMEA log to GPX file, the counterpart of
/// `gpsbabel -i nmea -f FILE -o gpx -F OUT.gpx`. Every decoded fix with a 2D/3D position
/// becomes one trackpoint, in file order, one segment (what gpsbabel does: it neither filters
/// nor reorders), so both files hold the same points; the recorder's filters (warm-up, jitter,
/// out-of-order) are not applied, as they would drop points gpsbabel keeps.
enum GPXExportBenchmark {
    static func run(_ args: [String]) {
        guard args.count == 2 else { BenchSupport.fail("usage: nmea-gpx FILE OUT.gpx") }
        let bytes = BenchSupport.readAll(args[0])
        var decoder = NMEADecoder()
        var points: [TrackPoint] = []
        points.reserveCapacity(bytes.count / 600)
        bytes.withUnsafeBufferPointer { buf in
            decoder.feed(buf) { if $0.fix.mode >= .twoD { points.append(TrackPoint(fix: $0.fix)) } }
        }
        decoder.flush { if $0.fix.mode >= .twoD { points.append(TrackPoint(fix: $0.fix)) } }
        guard let first = points.first, let last = points.last else { BenchSupport.fail("no fixes in \(args[0])") }
        let summary = WorkoutSummary(id: WorkoutID(start: first.fix.time, suffix: 0), activity: .other,
                                     startedAt: first.fix.time, endedAt: last.fix.time,
                                     pointCount: points.count, acceptedCount: points.count)
        let workout = Workout(summary: summary, points: points, events: [], source: "nmea")
        BenchSupport.writeAll(args[1], GPXWriter.write(workout, options: .init(includesWaypoints: false)))
        BenchSupport.report([("trackpoints", String(points.count))])
    }
}
