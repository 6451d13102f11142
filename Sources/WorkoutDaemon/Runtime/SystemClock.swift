import Glibc
import WorkoutCore

/// The system's clocks (docs/time.md). Nothing is kept: wall time is read when it is needed,
/// never advanced from an anchor taken at start-up.
public struct SystemClock: LoopClock {
    public init() {}

    static func seconds(_ id: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(id, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    public func read() -> ClockReading {
        ClockReading(realtime: Self.seconds(CLOCK_REALTIME), boottime: Self.seconds(CLOCK_BOOTTIME), monotonic: Self.seconds(CLOCK_MONOTONIC))
    }

    public func monotonic() -> Double { Self.seconds(CLOCK_MONOTONIC) }

    /// Whether the kernel calls the system clock synchronized: adjtimex with no modes set only
    /// reads the state (it never changes the clock). Glibc's Swift module has no <sys/timex.h>,
    /// so the function is looked up by name and given a zeroed `struct timex` (208 bytes on
    /// 64-bit Linux; 256 are passed): `modes` (0) first, `status` after `modes` and four longs.
    public func sync() -> SystemClockSync {
        typealias Adjtimex = @convention(c) (UnsafeMutableRawPointer) -> Int32
        guard let call = CLibrary.function("adjtimex", as: Adjtimex.self) else { return .unknown }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        let rc = call(buffer)
        let status = buffer.load(fromByteOffset: 5 * MemoryLayout<Int>.size, as: Int32.self)
        return SystemClockSync(adjtimexResult: rc, status: status)
    }
}
