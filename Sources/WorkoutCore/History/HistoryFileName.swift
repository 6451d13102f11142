/// What a name in the history folder's `workouts/` is (docs/storage.md, "A history shared
/// between machines"). Only whole files under their final name are read: sync engines write
/// an arriving file under a temporary name and rename it into place, and so does workoutd.
public enum HistoryFileName: Equatable, Sendable {
    /// `<id>.json`: a saved workout.
    case workout(WorkoutID)
    /// `<id>.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.json`: a version of a workout that a sync
    /// engine kept beside the other after it was edited on two machines.
    case conflictCopy(ConflictCopy)
    /// A file still being written: Syncthing's `.syncthing.NAME.tmp` and `~syncthing~NAME.tmp`,
    /// workoutd's own `NAME.tmp-*`. Ignored until it is renamed into place.
    case inFlight
    /// Anything else (`.stfolder`, `.stignore`, a note): not a workout, ignored.
    case unrelated

    public init(_ name: String) {
        if HistoryFileName.isInFlight(name) { self = .inFlight; return }
        guard name.hasSuffix(".json") else { self = .unrelated; return }
        let stem = String(name.dropLast(5))
        // An ID has no dot: only a stem with one can be a conflict copy.
        if stem.utf8.contains(UInt8(ascii: ".")) {
            if let copy = ConflictCopy(stem: stem) { self = .conflictCopy(copy); return }
        } else if let id = WorkoutID(rawValue: stem) {
            self = .workout(id); return
        }
        self = .unrelated
    }

    /// The workout a saved file or a conflict copy holds a version of.
    public var workoutID: WorkoutID? {
        switch self {
        case .workout(let id): return id
        case .conflictCopy(let c): return c.id
        case .inFlight, .unrelated: return nil
        }
    }

    /// Names of files still being written, in any folder workoutd reads (history or import).
    public static func isInFlight(_ name: String) -> Bool {
        if name.hasSuffix(".tmp") && (name.hasPrefix(".syncthing.") || name.hasPrefix("~syncthing~")) { return true }
        return hasTemporaryMarker(name)
    }

    /// Whether `.tmp-` occurs in `name`, searched as bytes (the XML reader's search):
    /// `String.contains` goes through the generic substring searcher, which took 235 M
    /// instructions for a folder of 10,000 workouts at start-up (BENCHMARKS.md).
    static func hasTemporaryMarker(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { XMLReader.find($0, ".tmp-", from: 0) != nil }
    }

    /// The file name of a workout's own version.
    public static func of(_ id: WorkoutID) -> String { id.rawValue + ".json" }
}

/// A sync engine's copy of a version that lost a conflict: Syncthing names it
/// `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.EXT`, with the time it found the conflict (the
/// machine's local time) and the first characters of the ID of the device whose edit it holds.
public struct ConflictCopy: Equatable, Hashable, Sendable {
    public var id: WorkoutID
    /// `YYYYMMDD-HHMMSS` as written in the name.
    public var stamp: String
    /// The device part of the name (Syncthing: 7 characters of a device ID).
    public var device: String

    static let marker = ".sync-conflict-"

    /// Parses `<id>.sync-conflict-YYYYMMDD-HHMMSS-DEVICE` (the name without `.json`); nil for
    /// any other shape. A copy of a copy (`A.sync-conflict-X.sync-conflict-Y`) is a copy of A.
    public init?(stem: String) {
        guard let r = stem.firstRange(of: ConflictCopy.marker), let id = WorkoutID(rawValue: String(stem[..<r.lowerBound])) else { return nil }
        var rest = Substring(stem[r.upperBound...])
        if let next = rest.firstRange(of: ConflictCopy.marker) { rest = rest[..<next.lowerBound] }
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 8, parts[1].utf8.count == 6,
              parts[0].utf8.allSatisfy(isDigit), parts[1].utf8.allSatisfy(isDigit),
              !parts[2].isEmpty, parts[2].utf8.count <= 64,
              parts[2].utf8.allSatisfy({ isDigit($0) || ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") })
        else { return nil }
        self.id = id
        self.stamp = parts[0] + "-" + parts[1]
        self.device = String(parts[2])
    }
}
