import Glibc

/// The threads an import's files pass through after the bulk worker has read and decoded them
/// (`ImportBatch.run`): `measure` runs each file's tracks through the recorder (a pool of
/// `measurers` threads, file after file in turn), `write` takes the measured files in file order
/// (duplicates found, each workout encoded and written unsynced), `commit` syncs each group of
/// written files and lists them in the index. So the stages of consecutive files overlap (on as
/// many cores as there are, and with the waits on the disk) instead of following each other;
/// measuring, most of an import's CPU, runs on two cores.
///
/// Memory: at most `measureDepth` decoded files per measurer and `writeDepth` measured files
/// wait besides the file being read (a few files, whatever the batch); a group waiting for its
/// commit holds only its descriptors and summaries (and the last workout, `RecentWorkout`).
final class ImportStages: Sendable {
    /// Files queued or measuring on each measurer: two in all, as with one measurer of depth 2.
    static let measureDepth = 1
    static let writeDepth = 3
    static let commitDepth = 2
    /// Measuring threads: two, or one on a single core.
    static let measurers = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2 : 1
    let measure: [StageThread]
    let write = StageThread(depth: ImportStages.writeDepth)
    let commit = StageThread(depth: ImportStages.commitDepth)

    init(measurers: Int = ImportStages.measurers) {
        measure = (0..<max(1, measurers)).map { _ in StageThread(depth: ImportStages.measureDepth) }
    }

    /// The shutdown, in the order jobs flow (measure, write, commit): each stage runs what it
    /// holds, then its thread ends. Returns whether all of them ended within `seconds`.
    func shutDown(seconds: Double) -> Bool {
        let deadline = Deadline(seconds: seconds)
        var all = true
        for stage in measure + [write, commit] { all = stage.shutDown(seconds: deadline.remaining) && all }
        return all
    }

    /// Returns once every job submitted to the stages before it has run (jobs only flow
    /// forward: measure to write to commit).
    func drain() {
        for stage in measure { stage.drain() }
        write.drain()
        commit.drain()
    }
}
