/// Every version of every saved workout in the history folder, and what is listed of them
/// (docs/storage.md, "A history shared between machines"). A sync engine can leave two
/// versions of one workout (its own file and a conflict copy) and two machines can import one
/// recording each under its own ID; the catalog lists each workout once:
/// - of a workout's versions, one that another's revision replaces is never listed (an edit
///   supersedes every version it has seen, whatever their dates); of the rest, the preferred
///   one (`WorkoutVersion.isPreferred`: the newer edit); the others are kept aside, unlisted;
/// - of copies of one recording (`Importer.isDuplicate`, at least one of them imported), the
///   one with the smallest ID; the others are hidden behind it.
/// Both choices depend only on the files, never on the order they arrived in, so every machine
/// sharing the folder lists the same workouts. Changes return what they changed
/// (`HistoryCatalogEvent`), for the log.
public struct HistoryCatalog: Sendable {
    /// Every version by file name.
    public private(set) var versions: [String: WorkoutVersion] = [:]
    /// The file names of each workout's versions.
    private var filesByID: [WorkoutID: [String]] = [:]
    /// What `list`, `show`, streaks, habits, totals and records see.
    public private(set) var listed = SavedSummaries()
    /// The preferred version of each workout (listed or hidden).
    private var shownFile: [WorkoutID: String] = [:]
    /// Workouts hidden as copies of a listed one (the value).
    public private(set) var hidden: [WorkoutID: WorkoutID] = [:]
    /// Files that could not be read as a workout, as they were then: not read again until they
    /// change.
    public private(set) var unreadable: [String: FileStamp] = [:]

    public init() {}

    /// A catalog of `versions` (an index read at start-up), in any order: each workout is
    /// settled once, after all its versions are in.
    public init(_ versions: some Sequence<WorkoutVersion>) {
        let n = versions.underestimatedCount  // an index's versions: reserved, not grown 14 times
        self.versions.reserveCapacity(n)
        filesByID.reserveCapacity(n)
        shownFile.reserveCapacity(n)
        listed.reserveCapacity(n)
        for v in versions {
            if let old = self.versions.updateValue(v, forKey: v.file) {
                if old.id != v.id { filesByID[old.id]?.removeAll { $0 == v.file } } else { continue }
            }
            filesByID[v.id, default: []].append(v.file)
        }
        for id in Array(filesByID.keys) { _ = settle(id, arrived: false) }
    }

    /// What a version written now over `id` replaces: the keys of every version of it held
    /// here and of what they replaced, newest first, at most `Revision.maxReplaces`.
    public func lineage(of id: WorkoutID) -> [String] {
        var seen: [(key: String, at: Double)] = []
        var keys: Set<String> = []
        func add(_ key: String, _ at: Double) { if keys.insert(key).inserted { seen.append((key, at)) } }
        for f in filesByID[id] ?? [] {
            guard let r = versions[f]?.revision else { continue }
            add(r.key, r.editedAt)
            for k in r.replaces { add(k, Revision.time(ofKey: k) ?? 0) }
        }
        return seen.sorted { $0.at != $1.at ? $0.at > $1.at : $0.key > $1.key }.prefix(Revision.maxReplaces).map(\.key)
    }

    /// The file of a workout's preferred version (listed, or hidden behind a copy).
    public func file(of id: WorkoutID) -> String? { shownFile[id] }

    /// Every file of a workout: its versions, and the versions of the copies hidden behind it.
    /// Deleting a workout moves them all (otherwise a copy would take its place).
    public func files(of id: WorkoutID) -> [String] {
        var ids = [id]
        ids += hidden.filter { $0.value == id }.map(\.key).sorted()
        return ids.flatMap { (filesByID[$0] ?? []).sorted() }
    }

    /// Adds or replaces the version in `v.file`.
    public mutating func put(_ v: WorkoutVersion) -> [HistoryCatalogEvent] {
        var events: [HistoryCatalogEvent] = []
        if let old = versions[v.file], old.id != v.id { events += remove(file: v.file) }
        unreadable[v.file] = nil
        let arrived = versions[v.file] == nil
        versions[v.file] = v
        if arrived { filesByID[v.id, default: []].append(v.file) }
        return events + settle(v.id, arrived: arrived)
    }

    /// Forgets a file that is gone (or unreadable now).
    public mutating func remove(file: String) -> [HistoryCatalogEvent] {
        unreadable[file] = nil
        guard let v = versions.removeValue(forKey: file) else { return [] }
        filesByID[v.id]?.removeAll { $0 == file }
        return settle(v.id, arrived: false)
    }

    /// Records that `file`, as `stamp` says, is not a readable workout (it stays unlisted).
    public mutating func markUnreadable(_ file: String, _ stamp: FileStamp) -> [HistoryCatalogEvent] {
        let events = remove(file: file)
        unreadable[file] = stamp
        return events
    }

    /// What a look at the folder (`found`: name and stamp of each workout file or conflict copy
    /// now there) means: the files to read (new, or changed since they were read) and the files
    /// that are gone.
    public func changes(in found: [String: FileStamp]) -> (read: [String], gone: [String]) {
        var read: [String] = []
        for (name, stamp) in found where versions[name]?.stamp != stamp && unreadable[name] != stamp { read.append(name) }
        var gone: [String] = []
        for name in versions.keys where found[name] == nil { gone.append(name) }
        for name in unreadable.keys where found[name] == nil { gone.append(name) }
        return (read.sorted(), gone.sorted())
    }

    /// Chooses what is listed of `id` after one of its versions changed.
    private mutating func settle(_ id: WorkoutID, arrived: Bool) -> [HistoryCatalogEvent] {
        guard let files = filesByID[id], !files.isEmpty else {
            filesByID[id] = nil
            shownFile[id] = nil
            if hidden.removeValue(forKey: id) != nil { return [] }
            guard listed[id] != nil else { return [] }
            listed[id] = nil
            return [.unlisted(id)] + release(copiesOf: id)
        }
        let all = files.compactMap { versions[$0] }
        let replaced = Set(all.flatMap { $0.revision?.replaces ?? [] })
        let heads = all.filter { v in v.revision.map { !replaced.contains($0.key) } ?? true }
        let candidates = heads.isEmpty ? all : heads  // a cycle of replaces (forged): by the clock
        guard var best = candidates.first else { return [] }
        for c in candidates.dropFirst() where c.isPreferred(over: best) { best = c }
        let previous = shownFile[id]
        shownFile[id] = best.file
        var events: [HistoryCatalogEvent] = []
        if files.count > 1, arrived || previous != best.file {
            events.append(.conflict(id, shown: best.file, keptAside: files.filter { $0 != best.file }.sorted()))
        }
        return events + show(best)
    }

    /// Lists `v` (the preferred version of its workout), or hides it behind a copy.
    private mutating func show(_ v: WorkoutVersion) -> [HistoryCatalogEvent] {
        let id = v.id
        if let current = listed[id] {
            guard current != v.summary else { return [] }
            listed[id] = v.summary
            return [.changed(id)]
        }
        if hidden[id] != nil { return [] }
        guard let twin = listed.duplicate(of: v.summary, where: { other in
            other.id != id && (v.imported || shownVersion(other.id)?.imported == true)
        }) else {
            listed[id] = v.summary
            return [.listed(id)]
        }
        guard id < twin.id else {
            hidden[id] = twin.id
            return [.duplicateHidden(id, copyOf: twin.id)]
        }
        // This copy has the smaller ID: it is listed, the twin (and what hid behind it) hides.
        listed[twin.id] = nil
        for (h, of) in hidden where of == twin.id { hidden[h] = id }
        hidden[twin.id] = id
        listed[id] = v.summary
        return [.listed(id), .duplicateHidden(twin.id, copyOf: id)]
    }

    /// The copies hidden behind a workout no longer listed are placed again (the smallest ID
    /// first: it is listed and the others hide behind it).
    private mutating func release(copiesOf id: WorkoutID) -> [HistoryCatalogEvent] {
        let freed = hidden.filter { $0.value == id }.map(\.key).sorted()
        for h in freed { hidden[h] = nil }
        var events: [HistoryCatalogEvent] = []
        for h in freed { if let v = shownVersion(h) { events += show(v) } }
        return events
    }

    private func shownVersion(_ id: WorkoutID) -> WorkoutVersion? {
        shownFile[id].flatMap { versions[$0] }
    }
}

/// What a change to the catalog changed in what is listed (for the log).
public enum HistoryCatalogEvent: Equatable, Sendable {
    /// A workout is listed that was not.
    case listed(WorkoutID)
    /// A listed workout's summary changed (edited, or another version preferred now).
    case changed(WorkoutID)
    /// A workout is no longer listed: its last version is gone.
    case unlisted(WorkoutID)
    /// A workout has several versions: `shown` is listed, `keptAside` are not.
    case conflict(WorkoutID, shown: String, keptAside: [String])
    /// A workout is hidden because it is a copy of a listed one (`copyOf`).
    case duplicateHidden(WorkoutID, copyOf: WorkoutID)
}
