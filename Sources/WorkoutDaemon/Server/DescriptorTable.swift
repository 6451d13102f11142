import Glibc

/// The process's descriptor table, sized once at start-up for the descriptors the daemon may
/// hold (issue 43). The kernel grows the table when it hands out a number beyond it, and in a
/// process with threads each growth waits for an RCU grace period (`expand_files`,
/// `synchronize_rcu`). An `import` passes one descriptor per file (SCM_RIGHTS), received on the
/// event loop: the table grew there, the loop blocked in `recvmsg` 7-16 ms once per import of
/// 1,000 FIT files (perf: the loop's thread in D state under `expand_files`). Grown before any
/// thread exists, the table costs no grace period; it never shrinks.
enum DescriptorTable {
    /// At most this many slots (the kernel's memory: 8 bytes and 2 bits a slot).
    static let maxSlots = 4096

    /// Grows the table to `slots` descriptors (at most the soft RLIMIT_NOFILE, the most the
    /// process may open): a descriptor is duplicated to the highest number and closed. Returns
    /// the slots now held for certain (0: nothing done).
    @discardableResult
    static func reserve(slots: Int = maxSlots) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let n = min(slots, Int(clamping: limit.rlim_cur))
        guard n > 1 else { return 0 }
        let fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        let high = fcntl(fd, F_DUPFD_CLOEXEC, Int32(n - 1))
        guard high >= 0 else { return 0 }
        close(high)
        return n
    }
}
