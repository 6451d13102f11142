import WorkoutCore

/// One reload as the services see it: the configuration before and after, the top-level keys
/// that changed, and what each service did with the keys it owns: applied them (at once, or
/// read where they are used), or named them as waiting for the next start. A changed key that
/// no service took counts as waiting: the reply never claims more than was done.
struct ConfigReload {
    let old: Config
    let new: Config
    /// The keys that changed, in `Config.Key` order.
    let changed: [Config.Key]
    private var applied: Set<Config.Key> = []
    private var waiting: Set<Config.Key> = []

    init(old: Config, new: Config) {
        self.old = old
        self.new = new
        changed = old.changedKeys(to: new)
    }

    /// Whether any of `keys` changed.
    func changed(_ keys: Config.Key...) -> Bool { keys.contains { changed.contains($0) } }

    /// The owner took `keys` (those among them that changed): they are in force from now on.
    mutating func applied(_ keys: Config.Key...) {
        for k in keys where changed.contains(k) { applied.insert(k) }
    }

    /// The owner reads `key` at start-up only: a change takes effect at the next start.
    mutating func atNextStart(_ key: Config.Key) {
        if changed.contains(key) { waiting.insert(key) }
    }

    /// The changed keys that wait for a restart (named by their owner, or taken by none).
    var needsRestart: [Config.Key] { changed.filter { waiting.contains($0) || !applied.contains($0) } }
}
