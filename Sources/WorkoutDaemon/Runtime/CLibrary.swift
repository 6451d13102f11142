import Glibc

/// The C library's functions that Glibc's Swift module does not export (epoll, affinity,
/// `gettid`, `prctl`, `ppoll`, `adjtimex`, ...), found by name in the process's global scope
/// (`dlsym` with RTLD_DEFAULT); nil where this C library has none.
enum CLibrary {
    static func function<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
}
