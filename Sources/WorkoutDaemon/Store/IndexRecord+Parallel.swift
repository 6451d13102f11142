import Dispatch
import Glibc
import WorkoutCore

extension IndexRecord {
    /// The records of a whole index in file order; a damaged line is left out. Each line stands
    /// alone, so a large index is cut right after newlines into one piece per core (at most
    /// four), parsed on that many threads, and the pieces' records joined in order: start-up
    /// with 10,000 workouts spends nearly all its time here.
    static func parseAll(_ bytes: [UInt8], pieces wanted: Int) -> [IndexRecord] {
        let cuts = pieces(of: bytes, count: wanted)
        var parsed = [[IndexRecord]](repeating: [], count: cuts.count)
        parsed.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out  // each iteration writes its own slot
            DispatchQueue.concurrentPerform(iterations: cuts.count) { k in out[k] = parse(bytes[cuts[k]]) }
        }
        return parsed.flatMap { $0 }
    }

    /// How many threads an index of `size` bytes is worth: one below 256 KiB (~500 workouts).
    static func threads(for size: Int) -> Int {
        size < 256 << 10 ? 1 : max(1, min(4, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
