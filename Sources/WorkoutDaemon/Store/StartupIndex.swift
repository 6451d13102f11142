import Glibc
import WorkoutCore

/// What start-up needs of the history, without reading the index (`index.start` in the state
/// directory, beside `index.jsonl`): how many workouts are listed and, oldest first, each one's
/// start, timer time, distance and activity (the streak line, habits and today's risk). 32
/// bytes a workout, read whole in one call: start-up with 10,000 workouts reads 320 KB instead of
/// parsing 12 MB of summaries (BENCHMARKS.md, issue 43). The catalog is read from the index
/// afterwards, off the loop, and whatever needs more than this waits for it.
///
/// It is a cache of the catalog as the index file it names (by stamp: inode, size, modified
/// time) lists it: any append, rewrite or replacement of `index.jsonl` makes it stale. A stale,
/// missing or damaged one is never used (the index is read as before) and is written anew once
/// the catalog is loaded, and whenever the daemon stops with the index changed.
struct StartupIndex: Sendable, Equatable {
    /// The stamp of the `index.jsonl` this was taken from.
    var indexStamp: FileStamp
    /// The listed workouts, oldest first, as `StreakWorkout(summary)` makes them.
    var workouts: [StreakWorkout]

    static let magic: [UInt8] = Array("WDSTART1".utf8)
    static let headerSize = 8 + 4 * 8 + 8
    static let recordSize = 32
    /// `ActivityType.allCases`' position, or this for none.
    static let noActivity: UInt8 = 255

    /// The file's bytes (little-endian).
    func encoded() -> [UInt8] {
        var out = StartupIndex.magic
        out.reserveCapacity(StartupIndex.headerSize + workouts.count * StartupIndex.recordSize)
        func put(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        put(indexStamp.inode)
        put(UInt64(bitPattern: indexStamp.size))
        put(UInt64(bitPattern: indexStamp.modifiedSeconds))
        put(UInt64(bitPattern: indexStamp.modifiedNanoseconds))
        put(UInt64(workouts.count))
        let cases = ActivityType.allCases
        for w in workouts {
            put(w.startedAt.bitPattern)
            put(w.durationSeconds.bitPattern)
            put(w.distanceMeters.bitPattern)
            let code = w.activity.flatMap { a in cases.firstIndex(of: a).map { UInt8($0) } } ?? StartupIndex.noActivity
            put(UInt64(code))
        }
        return out
    }

    /// The index in `bytes`, or nil when they are not one whole (wrong magic, a count that
    /// does not match the length, an unknown activity, a time that is not finite).
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= StartupIndex.headerSize, bytes.starts(with: StartupIndex.magic) else { return nil }
        let cases = ActivityType.allCases
        let decoded: (FileStamp, [StreakWorkout])? = bytes.withUnsafeBytes { raw in
            func word(_ at: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            let stamp = FileStamp(inode: word(8), size: Int64(bitPattern: word(16)), modifiedSeconds: Int64(bitPattern: word(24)),
                                  modifiedNanoseconds: Int64(bitPattern: word(32)))
            let count = word(40)
            guard count <= UInt64(Int.max / StartupIndex.recordSize),
                  bytes.count == StartupIndex.headerSize + Int(count) * StartupIndex.recordSize else { return nil }
            var workouts: [StreakWorkout] = []
            workouts.reserveCapacity(Int(count))
            var at = StartupIndex.headerSize
            for _ in 0..<Int(count) {
                let start = Double(bitPattern: word(at)), duration = Double(bitPattern: word(at + 8)), distance = Double(bitPattern: word(at + 16))
                let code = word(at + 24)
                guard start.isFinite, duration.isFinite, distance.isFinite else { return nil }
                let activity: ActivityType?
                if code == UInt64(StartupIndex.noActivity) { activity = nil } else if code < UInt64(cases.count) { activity = cases[Int(code)] } else { return nil }
                workouts.append(StreakWorkout(startedAt: start, durationSeconds: duration, activity: activity, distanceMeters: distance))
                at += StartupIndex.recordSize
            }
            return (stamp, workouts)
        }
        guard let decoded else { return nil }
        indexStamp = decoded.0
        workouts = decoded.1
    }

    init(indexStamp: FileStamp, workouts: [StreakWorkout]) {
        self.indexStamp = indexStamp
        self.workouts = workouts
    }

    /// The file at `path` if it is whole and taken from the index file as it is now (`index`),
    /// else nil.
    static func read(_ path: String, index: String) -> StartupIndex? {
        guard let now = HistoryStore.stamp(index), let bytes = try? readFile(path, limit: 64 << 20, links: .refuse),
              let s = StartupIndex(decoding: bytes), s.indexStamp == now else { return nil }
        return s
    }
}
