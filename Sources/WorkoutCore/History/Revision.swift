/// When and where a saved workout file was last written (recorded, imported, edited, restored):
/// the `revision` of the native file (docs/formats.md), and the versions it replaces. When a
/// sync engine keeps two versions of one workout, one that the other's revision replaces is
/// never listed, whatever its clock said; between the others the newer edit is listed
/// (`HistoryCatalog`, `WorkoutVersion.isPreferred`). Files written before revisions have none.
public struct Revision: Sendable, Equatable {
    /// Seconds since the Unix epoch (the writing machine's clock).
    public var editedAt: Double
    /// The writing machine's tag (`MachineTag`).
    public var machine: MachineTag
    /// The writing machine's host name, for people reading the log ("edited on pi").
    public var host: String
    /// The `key`s of the versions this one was written over: every version of the workout the
    /// writing machine held (and what they replaced), at most `maxReplaces`, newest first.
    public var replaces: [String]

    /// Most keys a revision names (an edit of an edit of an edit ... does not grow the file).
    public static let maxReplaces = 32

    public init(editedAt: Double, machine: MachineTag, host: String, replaces: [String] = []) {
        self.editedAt = editedAt; self.machine = machine; self.host = host; self.replaces = replaces
    }

    /// What names this version in another's `replaces`: the machine and the time, to the
    /// millisecond as the file keeps it (`k3m9xa@2026-11-21T09:30:00.000Z`).
    public var key: String { machine.rawValue + "@" + ISO8601.format(editedAt, fractionDigits: 3) }

    /// The time a `key` names (nil: not a key).
    public static func time(ofKey key: String) -> Double? {
        key.split(separator: "@", maxSplits: 1).last.flatMap { ISO8601.parse(String($0)) }
    }

    public func json() -> JSON { JSONTree.build { encode(to: &$0) } }

    /// `json().serialized()` written straight to bytes.
    public func writeJSON(to w: inout JSONWriter) { encode(to: &w) }

    /// The revision's one schema, for the tree and the bytes.
    func encode<S: JSONSink>(to s: inout S) {
        s.beginObject()
        s.key("editedAt"); s.time(editedAt, fractionDigits: 3)
        s.key("machine"); s.string(machine.rawValue)
        s.key("host"); s.string(host)
        if !replaces.isEmpty { s.key("replaces"); s.array(replaces) { s, r in s.string(r) } }
        s.endObject()
    }

    /// nil when a field is missing or invalid (the file then counts as having no revision).
    public init?(json j: JSON) {
        guard let t = j["editedAt"]?.stringValue.flatMap({ ISO8601.parse($0) }), t.isFinite,
              let m = j["machine"]?.stringValue.flatMap(MachineTag.init(rawValue:)) else { return nil }
        let replaces = (j["replaces"]?.arrayValue ?? []).compactMap(\.stringValue).prefix(Revision.maxReplaces)
        self.init(editedAt: t, machine: m, host: j["host"]?.stringValue ?? "", replaces: Array(replaces))
    }
}

/// What identifies a file's content without reading it: inode, size and modification time
/// (`stat`). A file replaced by a sync engine or by workoutd (written aside and renamed) gets a
/// new inode; one rewritten in place a new size or time.
public struct FileStamp: Sendable, Equatable, Hashable {
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64

    public init(inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.inode = inode; self.size = size; self.modifiedSeconds = modifiedSeconds; self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The modification time in seconds since the epoch.
    public var modified: Double { Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9 }
}

/// One version of a saved workout: a file in `workouts/` (its own `<id>.json`, or a sync
/// engine's conflict copy) with the summary it holds.
public struct WorkoutVersion: Sendable, Equatable {
    /// The file's name in `workouts/`.
    public var file: String
    public var summary: WorkoutSummary
    public var revision: Revision?
    /// The file came from an import (`source` "imported:..."): such copies of one recording are
    /// shown once across machines (`HistoryCatalog`).
    public var imported: Bool
    public var stamp: FileStamp

    public init(file: String, summary: WorkoutSummary, revision: Revision?, imported: Bool, stamp: FileStamp) {
        self.file = file; self.summary = summary; self.revision = revision; self.imported = imported; self.stamp = stamp
    }

    public var id: WorkoutID { summary.id }

    /// When this version was written: its revision, else (a file from before revisions) its
    /// modification time, which sync engines carry across machines.
    public var editedAt: Double { revision?.editedAt ?? stamp.modified }

    /// Whether `self` is listed rather than `other`, two versions of one workout neither of
    /// which replaces the other (`HistoryCatalog` settles ancestry first): the newer edit; at
    /// the same time the one with a revision, then the higher machine tag, then the
    /// workout's own file over a conflict copy, then the greater name. Every machine that holds
    /// the same two files makes the same choice, whatever order they arrived in.
    public func isPreferred(over other: WorkoutVersion) -> Bool {
        if editedAt != other.editedAt { return editedAt > other.editedAt }
        if (revision == nil) != (other.revision == nil) { return revision != nil }
        let (m, n) = (revision?.machine.rawValue ?? "", other.revision?.machine.rawValue ?? "")
        if m != n { return m > n }
        let (own, otherOwn) = (file == HistoryFileName.of(id), other.file == HistoryFileName.of(other.id))
        if own != otherOwn { return own }
        return file > other.file
    }
}
