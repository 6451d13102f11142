import Glibc
import WorkoutCore

/// Reads the system's clocks for the core (docs/time.md). Nothing is kept: wall time is read
/// when it is needed, never advanced from an anchor taken at start-up.
enum SystemClock {
    static func seconds(_ id: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// CLOCK_REALTIME, CLOCK_BOOTTIME and CLOCK_MONOTONIC, read together.
    static func read() -> ClockReading {
        ClockReading(realtime: seconds(CLOCK_REALTIME), boottime: seconds(CLOCK_BOOTTIME), monotonic: seconds(CLOCK_MONOTONIC))
    }

    /// CLOCK_BOOTTIME: seconds since boot, suspended time included.
    static func boottime() -> Double { seconds(CLOCK_BOOTTIME) }

    /// The wall clock now (UTC seconds since 1970).
    static func wall() -> Double { seconds(CLOCK_REALTIME) }

    /// Whether the kernel calls the system clock synchronized: adjtimex with no modes set only
    /// reads the state (it never changes the clock). Glibc's Swift module has no <sys/timex.h>,
    /// so the function is looked up by name and given a zeroed `struct timex` (208 bytes on
    /// 64-bit Linux; 256 are passed): `modes` (0) first, `status` after `modes` and four longs.
    static func sync() -> SystemClockSync {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "adjtimex") else { return .unknown }  // RTLD_DEFAULT
        typealias Adjtimex = @convention(c) (UnsafeMutableRawPointer) -> Int32
        let call = unsafeBitCast(sym, to: Adjtimex.self)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        let rc = call(buffer)
        let status = buffer.load(fromByteOffset: 5 * MemoryLayout<Int>.size, as: Int32.self)
        return SystemClockSync(adjtimexResult: rc, status: status)
    }
}
