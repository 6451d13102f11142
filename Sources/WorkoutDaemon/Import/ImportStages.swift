/// The threads an import's files pass through after the bulk worker has read and decoded them
/// (`ImportBatch.run`): `measure` runs each file's tracks through the recorder, `write` encodes
/// and writes each workout (unsynced), `commit` syncs each group of written files and lists them
/// in the index. So the stages of consecutive files overlap (on as many cores as there are, and
/// with the waits on the disk) instead of following each other.
///
/// Memory: at most `measureDepth` decoded files and `writeDepth` measured workouts wait besides
/// the file being read (a few files, whatever the batch); a group waiting for its commit holds
/// only its descriptors and summaries (and the last workout, `RecentWorkout`).
final class ImportStages: Sendable {
    static let measureDepth = 2
    static let writeDepth = 3
    static let commitDepth = 2
    let measure = StageThread(depth: ImportStages.measureDepth)
    let write = StageThread(depth: ImportStages.writeDepth)
    let commit = StageThread(depth: ImportStages.commitDepth)

    /// The shutdown, in the order jobs flow (measure, write, commit): each stage runs what it
    /// holds, then its thread ends. Returns whether all three ended within `seconds`.
    func shutDown(seconds: Double) -> Bool {
        let deadline = Deadline(seconds: seconds)
        var all = true
        for stage in [measure, write, commit] { all = stage.shutDown(seconds: deadline.remaining) && all }
        return all
    }

    /// Returns once every job submitted to the stages before it has run (jobs only flow
    /// forward: measure to write to commit).
    func drain() {
        measure.drain()
        write.drain()
        commit.drain()
    }
}
