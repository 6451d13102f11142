#if canImport(Glibc)
import Glibc
#endif

/// How the daemon's allocator hands memory back to the kernel during bulk work.
///
/// By default glibc maps each block over 128 KiB on its own and unmaps it when freed, and gives
/// the top of a heap back as soon as 128 KiB are free there. Bulk work allocates and frees
/// megabytes per file (the file, its points, the encoded workout), so every file faulted fresh,
/// zeroed pages in again: 722,000 page faults and 2.5 s of kernel time for a batch of 1,000 FIT
/// files, a third of its CPU. While bulk work runs (`beginBulkWork`) blocks up to 32 MiB stay in
/// the heap and up to 16 MiB may stay free at a heap's top (15,000 page faults, 0.6-1.3 s for
/// that batch). When the bulk worker's queue is empty (`endBulkWork`) both thresholds go back to
/// 128 KiB and free memory is given back (`returnFreedMemory`, also after each save), so a
/// recording daemon keeps the footprint it had without the policy (`workoutbench memory`).
///
/// `mallopt` and `malloc_trim` are glibc's (malloc.h, not in Swift's Glibc module): looked up by
/// name, and nothing happens where they are missing (another C library).
public enum MemoryPolicy {
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// glibc's M_TRIM_THRESHOLD and M_MMAP_THRESHOLD (malloc.h).
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3

    /// During bulk work, blocks up to this size come from the heap (32 MiB: glibc's largest).
    public static let bulkMmapThreshold: Int32 = 32 << 20
    /// During bulk work, free memory at a heap's top up to this size is kept for the next file.
    public static let bulkTrimThreshold: Int32 = 16 << 20
    /// Both thresholds outside bulk work: glibc's defaults (128 KiB).
    public static let defaultThreshold: Int32 = 128 << 10

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        return dlsym(nil, name)
        #else
        return nil
        #endif
    }

    /// Looked up once (every bulk job and every save calls them).
    private static let mallopt: Mallopt? = symbol("mallopt").map { unsafeBitCast($0, to: Mallopt.self) }
    private static let mallocTrim: MallocTrim? = symbol("malloc_trim").map { unsafeBitCast($0, to: MallocTrim.self) }

    /// Keeps freed memory for the next file. Returns false where the thresholds could not be set.
    @discardableResult
    public static func beginBulkWork() -> Bool {
        setThresholds(mmap: bulkMmapThreshold, trim: bulkTrimThreshold)
    }

    /// Back to the default thresholds, and free memory given back.
    public static func endBulkWork() {
        setThresholds(mmap: defaultThreshold, trim: defaultThreshold)
        returnFreedMemory()
    }

    @discardableResult
    private static func setThresholds(mmap: Int32, trim: Int32) -> Bool {
        guard let mallopt else { return false }
        return mallopt(mmapThresholdParameter, mmap) == 1 && mallopt(trimThresholdParameter, trim) == 1
    }

    /// Gives free heap memory back to the kernel (all arenas).
    public static func returnFreedMemory() {
        _ = mallocTrim?(0)
    }

    /// Hands the pages of the program's own code back to the kernel (`MADV_DONTNEED` on the
    /// executable's `r-xp` mappings in /proc/self/maps); returns the bytes of code released (0
    /// where unsupported). Idle resident memory is mostly code, not data: the kernel maps a
    /// program's code 64 KiB around every page it runs, so start-up (configuration, every
    /// service starting, the Swift runtime's first lookups) leaves most of a 12 MB binary
    /// resident though the idle loop never runs it again. The pages are clean, private and
    /// read-only, so nothing is lost: code that runs later is mapped again from the page cache
    /// (a minor fault, no disk read while the file is cached).
    @discardableResult
    public static func releaseCodePages() -> Int {
        #if canImport(Glibc)
        var target = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &target, target.count - 1)
        guard n > 0, let maps = try? readRegularFile("/proc/self/maps", limit: 1 << 22) else { return 0 }
        let exe = String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var released = 0
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            // "start-end perms offset dev inode   path"
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1] == "r-xp", fields[5].trimmingPrefix(while: { $0 == " " }) == exe else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let lo = UInt(bounds[0], radix: 16), let hi = UInt(bounds[1], radix: 16), hi > lo,
                  let start = UnsafeMutableRawPointer(bitPattern: lo) else { continue }
            if madvise(start, Int(hi - lo), MADV_DONTNEED) == 0 { released += Int(hi - lo) }
        }
        return released
        #else
        return 0
        #endif
    }
}
