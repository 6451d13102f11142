import Glibc

/// epoll(7) through the C library's own functions, found with `dlsym`: Glibc's Swift module does
/// not export <sys/epoll.h>. A kernel event is a UInt32 mask then a UInt64 of our data, packed
/// (12 bytes) on x86_64 and naturally aligned (16 bytes) elsewhere, so events are read from
/// raw bytes. The mask bits are poll(2)'s (EPOLLIN = POLLIN, EPOLLRDHUP = POLLRDHUP, ...).
enum Epoll {
    private typealias Create1 = @convention(c) (Int32) -> Int32
    private typealias Ctl = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private static let create1Function = CLibrary.function("epoll_create1", as: Create1.self)
    private static let ctlFunction = CLibrary.function("epoll_ctl", as: Ctl.self)
    private static let waitFunction = CLibrary.function("epoll_wait", as: Wait.self)

    #if arch(x86_64)
    /// sizeof(struct epoll_event) and the offset of its data.
    static let eventSize = 12, dataOffset = 4
    #else
    static let eventSize = 16, dataOffset = 8
    #endif

    static let add: Int32 = 1, delete: Int32 = 2, modify: Int32 = 3

    /// A new close-on-exec epoll descriptor, or -1 with errno set.
    static func create() -> Int32 {
        guard let f = create1Function else { errno = ENOSYS; return -1 }
        return f(0o2000000)  // EPOLL_CLOEXEC = O_CLOEXEC
    }

    /// epoll_ctl with `events` and `data`; 0, or -1 with errno set.
    static func control(_ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32, data: UInt64) -> Int32 {
        guard let f = ctlFunction else { errno = ENOSYS; return -1 }
        var raw = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &raw) { b in
            b.storeBytes(of: events, toByteOffset: 0, as: UInt32.self)
            b.storeBytes(of: data, toByteOffset: dataOffset, as: UInt64.self)
            return f(epfd, op, fd, b.baseAddress)
        }
    }

    /// epoll_wait into `events` (room for `capacity` events); the count, or -1 with errno set.
    static func wait(_ epfd: Int32, _ events: UnsafeMutableRawPointer, _ capacity: Int32, _ timeoutMs: Int32) -> Int32 {
        guard let f = waitFunction else { errno = ENOSYS; return -1 }
        return f(epfd, events, capacity, timeoutMs)
    }

    /// The mask and data of event `i` in a buffer `wait` filled.
    static func event(_ i: Int, in events: UnsafeMutableRawPointer) -> (events: UInt32, data: UInt64) {
        let at = UnsafeRawPointer(events) + i * eventSize
        return (at.loadUnaligned(as: UInt32.self), at.loadUnaligned(fromByteOffset: dataOffset, as: UInt64.self))
    }
}
