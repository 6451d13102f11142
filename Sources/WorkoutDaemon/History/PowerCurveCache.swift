import Synchronization
import WorkoutCore

/// Each saved power workout's whole power curve (`PowerCurve.of`), computed from its file the
/// first time a `power-curve` request needs it and kept for the next: nothing is held until one
/// is asked for (idle memory unchanged), and a request decodes only the workouts not asked for
/// before. An entry is used while the summary it was computed for is unchanged (`Key`); an
/// edited or recomputed workout is measured again. With a `file`, the curves are also kept
/// between runs (`PowerCurveFile`): read at the first request, written (atomically, on the
/// request's thread, never the loop) after a request that measured any.
final class PowerCurveCache: Sendable {
    /// `power-curves.bin` in the state directory; nil: memory only.
    let file: String?
    /// Whether the file was read yet (once, at the first request).
    private enum FileState { case unread, read }
    private let fileState = Mutex(FileState.unread)

    init(file: String? = nil) { self.file = file }
    /// What an entry was computed for (`PowerCurveKey`).
    typealias Key = PowerCurveKey

    /// What the cache needs of a workout's summary.
    struct Entry: Sendable {
        var id: WorkoutID
        var startedAt: Double
        var key: Key

        /// The summary's own best powers when they stand in for its curve
        /// (`PowerCurve.standsInForCurve`: a workout too long to measure whole), else nil.
        var standIn: [PowerCurvePoint]?

        init(_ s: WorkoutSummary) {
            id = s.id; startedAt = s.startedAt; key = Key(s)
            standIn = PowerCurve.standsInForCurve(s) ? s.powerCurve : nil
        }
    }

    private let entries = Mutex<[WorkoutID: (key: Key, curve: [PowerCurvePoint])]>([:])

    /// Number of curves held.
    var count: Int { entries.withLock { $0.count } }

    /// The curves of `workouts` (each a workout with power): from the cache, else `load`ed and
    /// measured, and kept. A workout that cannot be loaded is left out and named in `failed`.
    func curves(of workouts: [Entry], settings: MetricsSettings, load: (WorkoutID) throws -> Workout)
        -> (curves: [(id: WorkoutID, startedAt: Double, curve: [PowerCurvePoint])], computed: Int, failed: [WorkoutID]) {
        var out: [(id: WorkoutID, startedAt: Double, curve: [PowerCurvePoint])] = []
        out.reserveCapacity(workouts.count)
        var computed = 0
        var failed: [WorkoutID] = []
        readFileOnce()
        defer { if computed > 0 { writeFile() } }
        for s in workouts {
            let key = s.key
            if let hit = entries.withLock({ $0[s.id] }), hit.key == key {
                out.append((s.id, s.startedAt, hit.curve))
                continue
            }
            let curve: [PowerCurvePoint]
            if let standIn = s.standIn {
                curve = standIn
            } else {
                guard let w = try? load(s.id) else { failed.append(s.id); continue }
                curve = PowerCurve.of(w, settings: settings)
            }
            computed += 1
            entries.withLock { $0[s.id] = (key, curve) }
            out.append((s.id, s.startedAt, curve))
        }
        return (out, computed, failed)
    }

    /// The curves kept by an earlier run, at the first request (a damaged file: none).
    private func readFileOnce() {
        guard let file else { return }
        let first = fileState.withLock { state -> Bool in
            switch state {
            case .unread: state = .read; return true
            case .read: return false
            }
        }
        guard first, let bytes = try? readFile(file, limit: 256 << 20, links: .refuse),
              let saved = PowerCurveFile.decode(bytes) else { return }
        entries.withLock { e in
            for s in saved where e[s.id] == nil { e[s.id] = (s.key, s.curve) }
        }
    }

    /// Every curve held, for the next run (a cache: not synced; a failure only costs a replay).
    private func writeFile() {
        guard let file else { return }
        let all = entries.withLock { e in e.map { PowerCurveFile.Entry(id: $0.key, key: $0.value.key, curve: $0.value.curve) } }
        try? AtomicFile.write(PowerCurveFile.encode(all.sorted { $0.id.rawValue < $1.id.rawValue }), to: file)
    }
}
