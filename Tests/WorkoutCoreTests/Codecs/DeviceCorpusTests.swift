import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Every activity file under ../shared/data (corpus/ included: a rule over the folders, never a
/// list of files) imported as the daemon imports it, each workout against what its device said
/// (`device_reference.py` beside this file: Garmin's FIT SDK for FIT sessions, gpxpy and the
/// TCX laps for the rest; the same figures as corpus/references.csv): elapsed within 1 % of
/// `total_elapsed_time` (else the points' span), the timer within 1 % of `total_timer_time` (TCX:
/// the laps' time), distance within 0.5 % of the session's, heart rate within 2 bpm and power
/// within 2 % of the session's averages, running cadence within 2 steps/min of twice the
/// session's, and each FIT session's point count equal to its records with a position. The
/// device's climb (`total_ascent`) is carried exactly beside ours; our measured gain is set
/// against it (and against gpxpy's on GPX tracks) within 25 % or 15 m, a measurement shown in
/// the table (devices count climbs by their own rules), with the median error over the
/// sessions that climbed 50 m or more held under 15 %. The table is docs/metrics.md's ("Every
/// shared device file").
@Suite(.requires(.sharedData, .python(.garminFitSDK), .python(.gpxpy)))
struct DeviceCorpusTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("device_reference.py").path

    /// One workout as its device summed it up (`device_reference.py`).
    struct Session: Decodable {
        var start: Double?
        var elapsed: Double?
        var timer: Double?
        var distance: Double?
        var heart_rate: Double?
        var power: Double?
        var cadence: Double?
        var positioned: Int
        var sport: String
        var ascent: Double?
    }

    struct Reference: Decodable {
        var format: String
        var sessions: [Session]
    }

    /// Every activity file in the shared data folders, any depth (`.fit`, `.gpx`, `.tcx`, gzipped or not).
    static func files() -> [URL] {
        let root = SharedData.url("data")
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        let kinds = [".fit", ".gpx", ".tcx", ".fit.gz", ".gpx.gz", ".tcx.gz"]
        return e.compactMap { $0 as? URL }.filter { u in kinds.contains { u.lastPathComponent.lowercased().hasSuffix($0) } }
            .sorted { $0.path < $1.path }
    }

    /// One comparison: what we say, what the device said, and whether it is within tolerance.
    struct Check {
        var name: String
        var ours: Double
        var device: Double
        var pass: Bool
        /// A failure fails the test (false: measured and shown, `ascent`).
        var asserted = true
        var text: String { "\(Self.fmt(ours)) / \(Self.fmt(device))" + (pass ? "" : " ✗") }
        static func fmt(_ v: Double) -> String { v.rounded() == v || abs(v) >= 100 ? String(Int(v.rounded())) : String(format: "%.1f", v) }
    }

    /// The workouts of a file, as the daemon imports it (FIT straight from the file).
    static func imported(_ url: URL) throws -> [WorkoutSummary] {
        let bytes = try SharedData.bytes(url)
        let name = url.lastPathComponent
        var k: UInt16 = 0
        if FITMessageDecoder.looksLikeFIT(bytes) {
            return try FITImport.workouts(FITBytes(bytes), fileName: name, activity: nil, settings: MetricsSettings(), source: "imported:" + name,
                                          suffix: { k += 1; return k }).map(\.recorded.summary)
        }
        return try Importer.readAll(bytes, fileName: name).map { t in
            k += 1
            return try Importer.imported(from: t, activity: nil, id: k, settings: MetricsSettings(), source: "imported:" + name).recorded.summary
        }
    }

    /// The comparisons of one workout with its session.
    static func checks(_ s: WorkoutSummary, _ ref: Session, format: String) -> [Check] {
        var out: [Check] = []
        if let e = ref.elapsed, e > 0 { out.append(Check(name: "elapsed", ours: s.elapsedSeconds, device: e, pass: abs(s.elapsedSeconds - e) <= 0.01 * e)) }
        if let t = ref.timer, t > 0 { out.append(Check(name: "timer", ours: s.timerSeconds, device: t, pass: abs(s.timerSeconds - t) <= 0.01 * t)) }
        if let d = ref.distance, d > 0 { out.append(Check(name: "distance", ours: s.distanceMeters, device: d, pass: abs(s.distanceMeters - d) <= 0.005 * d)) }
        if let h = ref.heart_rate, h > 0 {
            let ours = s.averageHeartRate ?? 0
            out.append(Check(name: "heart rate", ours: ours, device: h, pass: abs(ours - h) <= 2))
        }
        if let p = ref.power, p > 0 {
            let ours = s.averagePower ?? 0
            out.append(Check(name: "power", ours: ours, device: p, pass: abs(ours - p) <= 0.02 * p))
        }
        if let c = ref.cadence, c > 0 {
            let ours = s.averageCadence ?? 0
            out.append(Check(name: "cadence", ours: ours, device: c, pass: abs(ours - c) <= 2))
        }
        if format == "fit" {
            out.append(Check(name: "points", ours: Double(s.pointCount), device: Double(ref.positioned), pass: s.pointCount == ref.positioned))
        }
        if let a = ref.ascent {
            if format == "fit" {
                let carried = s.deviceElevationGainMeters ?? -1
                out.append(Check(name: "device ascent", ours: carried, device: a, pass: abs(carried - a) < 0.5))
            }
            let ours = s.elevationGainMeters
            out.append(Check(name: "ascent", ours: ours, device: a, pass: abs(ours - a) <= max(15, 0.25 * a), asserted: false))
        }
        return out
    }

    @Test func everyDeviceFileMeansWhatItsDeviceMeant() throws {
        let files = Self.files()
        try #require(!files.isEmpty, "no activity files under \(SharedData.url("data").path)")
        let r = try SharedData.run(["python3", Self.script] + files.map(\.path))
        try #require(r.status == 0, "device_reference.py failed: \(r.stderr)")
        let refs = try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Reference.self, from: Data($0.utf8)) }
        try #require(refs.count == files.count)
        let root = SharedData.url("data").path + "/"
        var table = ["| file | leg | elapsed s | timer s | distance m | heart rate bpm | power W | cadence spm | points | ascent m |",
                     "|---|---|---|---|---|---|---|---|---|---|"]
        var ascentErrors: [Double] = []
        var tally: [String: (pass: Int, of: Int)] = [:]
        var failures: [String] = []
        for (url, ref) in zip(files, refs) where !ref.sessions.isEmpty {
            let name = String(url.path.dropFirst(root.count))
            let workouts: [WorkoutSummary]
            do { workouts = try Self.imported(url) } catch {
                table.append("| \(name) | refused: \(error) | | | | | | | | |")
                continue
            }
            for (k, session) in ref.sessions.enumerated() {
                // The workout that starts with the session (its leg), else the file's only one.
                let w = session.start.flatMap { st in workouts.min { abs($0.startedAt - st) < abs($1.startedAt - st) }.flatMap { abs($0.startedAt - st) <= 2 ? $0 : nil } }
                    ?? (workouts.count == 1 && ref.sessions.count == 1 ? workouts[0] : nil)
                let leg = ref.sessions.count > 1 ? "\(k + 1)/\(ref.sessions.count) \(session.sport)" : session.sport
                guard let w else {
                    table.append("| \(name) | \(leg): no workout | | | | | | | | |")
                    failures.append("\(name) \(leg): no workout")
                    continue
                }
                let cs = Self.checks(w, session, format: ref.format)
                for c in cs {
                    tally[c.name, default: (0, 0)].of += 1
                    if c.pass { tally[c.name, default: (0, 0)].pass += 1 } else if c.asserted { failures.append("\(name) \(leg) \(c.name): \(c.text)") }
                    if c.name == "ascent", ref.format == "fit", c.device >= 50 { ascentErrors.append(abs(c.ours - c.device) / c.device) }
                }
                let cell = { (n: String) in cs.first { $0.name == n }?.text ?? "-" }
                table.append("| \(name) | \(leg) | " + ["elapsed", "timer", "distance", "heart rate", "power", "cadence", "points", "ascent"].map(cell).joined(separator: " | ") + " |")
            }
        }
        let summary = tally.keys.sorted().map { "\($0) \(tally[$0]!.pass) of \(tally[$0]!.of)" }.joined(separator: "; ")
        print(table.joined(separator: "\n"))
        print("Within tolerance: " + summary)
        for f in failures { Issue.record("\(f)") }
        // Our climb against the devices' own: a measure of the method over every session that
        // climbed 50 m or more, not of one file.
        let sorted = ascentErrors.sorted()
        if !sorted.isEmpty {
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            print("Ascent against the device (\(sorted.count) sessions of 50 m or more): median error \(String(format: "%.1f", 100 * median)) %, largest \(String(format: "%.1f", 100 * sorted.last!)) %")
            expectLess(median, 0.15)
        }
    }
}
