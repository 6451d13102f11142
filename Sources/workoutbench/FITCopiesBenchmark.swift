import Glibc
import WorkoutCore

/// `workoutbench fit-copies OUT_DIR COUNT FILE...`: COUNT FIT activity files for the batch
/// import benchmark: the given activities imported (Importer.readAll), every copy moved a day
/// later than the one before (so none is a duplicate) and written with workoutd's FIT writer.
enum FITCopiesBenchmark {
    static func run(_ args: [String]) {
        guard args.count >= 3, let count = Int(args[1]) else { BenchSupport.fail("usage: fit-copies OUT_DIR COUNT FILE...") }
        var tracks: [(String, Importer.Track)] = []
        for path in args.dropFirst(2) {
            let name = String(path.split(separator: "/").last ?? "")
            guard let all = try? Importer.readAll(BenchSupport.readAll(path), fileName: name) else { continue }
            for t in all where !t.fixes.isEmpty { tracks.append((name, t)) }
        }
        guard !tracks.isEmpty else { BenchSupport.fail("no activity in the given files") }
        var bytes = 0
        for k in 0..<count {
            var (name, track) = tracks[k % tracks.count]
            let shift = Double(k / tracks.count + 1) * 86_400
            for i in track.fixes.indices { track.fixes[i].time += shift }
            track.startTime = track.startTime.map { $0 + shift }
            track.endTime = track.endTime.map { $0 + shift }
            track.pauses = track.pauses.map { Importer.Span(start: $0.start + shift, end: $0.end + shift) }
            track.lapEnds = track.lapEnds.map { $0 + shift }
            guard let w = try? Importer.workout(from: track, activity: nil, id: UInt16(k & 0xffff), settings: MetricsSettings(), source: name) else { continue }
            let fit = Exporter.bytes(w, .fit)
            bytes += fit.count
            BenchSupport.writeAll(args[0] + "/" + String(k) + "-" + name, fit)
        }
        BenchSupport.report([("files", String(count)), ("bytes", String(bytes)), ("sources", String(tracks.count))])
    }
}
