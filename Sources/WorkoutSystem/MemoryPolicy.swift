#if canImport(Glibc)
import Glibc
#endif

/// How the daemon's allocator hands memory back to the kernel.
///
/// By default glibc maps each block over 128 KiB on its own and unmaps it when freed, and gives
/// the top of a heap back as soon as 128 KiB are free there. Bulk work allocates and frees
/// megabytes per file (the file, its points, the encoded workout), so every file faulted fresh,
/// zeroed pages in again: 722,000 page faults and 2.5 s of kernel time for a batch of 1,000 FIT
/// files, a third of its CPU. `keepFreedMemoryForReuse` keeps blocks up to 32 MiB in the heap and
/// up to 16 MiB free at a heap's top (15,000 page faults, 0.6-1.3 s for that batch);
/// `returnFreedMemory` gives free memory back once the work is done (the bulk worker when its
/// queue empties, the saver after a save). glibc's `malloc_trim` cannot shrink the top of a
/// thread's own heap, so up to 16 MiB may stay with the bulk worker after an import.
///
/// `mallopt` and `malloc_trim` are glibc's (malloc.h, not in Swift's Glibc module): looked up by
/// name, and nothing happens where they are missing (another C library).
public enum MemoryPolicy {
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    /// glibc's M_TRIM_THRESHOLD and M_MMAP_THRESHOLD (malloc.h).
    private static let trimThresholdParameter: Int32 = -1
    private static let mmapThresholdParameter: Int32 = -3

    /// Blocks up to this size come from the heap (32 MiB: glibc's largest allowed value).
    public static let mmapThreshold: Int32 = 32 << 20
    /// Free memory at the heap's top up to this size is kept for the next allocation.
    public static let trimThreshold: Int32 = 16 << 20

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        return dlsym(nil, name)
        #else
        return nil
        #endif
    }

    /// Sets the thresholds above (once, at start-up). Returns false where they could not be set.
    @discardableResult
    public static func keepFreedMemoryForReuse() -> Bool {
        guard let p = symbol("mallopt") else { return false }
        let mallopt = unsafeBitCast(p, to: Mallopt.self)
        return mallopt(mmapThresholdParameter, mmapThreshold) == 1 && mallopt(trimThresholdParameter, trimThreshold) == 1
    }

    /// Gives free heap memory back to the kernel (all arenas).
    public static func returnFreedMemory() {
        guard let p = symbol("malloc_trim") else { return }
        _ = unsafeBitCast(p, to: MallocTrim.self)(0)
    }
}
