/// The `hr` messages (global 132) of a FIT file: heart rate a chest strap (HRM-Swim, HRM-Tri)
/// stored while it could not send (under water) and handed to the watch afterwards. Garmin's
/// FIT SDK merges them into the records (`merge_heart_rates`, on by default); so does the import,
/// the same way (`Merge`).
///
/// - An anchor message has `timestamp` (253), `fractional_timestamp` (0, 1/32768 s) or
///   `time256` (1, 1/256 s), and one `event_timestamp` (9, uint32, 1/1024 s): the strap's clock
///   at that time.
/// - The others carry `event_timestamp_12` (10: 12-bit values, least significant bits first,
///   accumulated onto the last event timestamp) or `event_timestamp` values, and as many
///   `filtered_bpm` (6, uint8); each beat is at the anchor's time plus its event timestamp minus
///   the anchor's.
///
/// Memory: 9 bytes a sample (at most `FITActivityFile.Limits.heartRateSamples`); the SDK's
/// quarter-second fill of gaps is worked out as the merge walks, never stored.
public struct FITHeartRateMessages: Sendable, Equatable {
    /// Seconds since the FIT epoch (with the fraction), in message order.
    public private(set) var times: [Double] = []
    public private(set) var bpm: [UInt8] = []
    /// Messages read (the samples' messages; anchors included).
    public private(set) var messages = 0
    /// Messages left out: before any anchor, an anchor with other than one event timestamp,
    /// event timestamps and beats that do not pair up, a strap clock going backwards (where
    /// the SDK raises an error and merges nothing).
    public private(set) var skipped = 0

    /// The current anchor: its time (FIT s) and its event timestamp (s).
    private var anchor: (time: Double, event: Double)?
    /// `event_timestamp` accumulated from 12-bit values (1/1024 s) and the last raw value.
    private var accumulated: Int64?
    private var lastRaw: Int64 = 0

    public init() {}

    public static func == (a: Self, b: Self) -> Bool { a.times == b.times && a.bpm == b.bpm && a.skipped == b.skipped }

    public var isEmpty: Bool { times.isEmpty }
    public var count: Int { times.count }

    /// Reads one `hr` message; false when the samples would exceed `limit`.
    mutating func add(_ m: FITMessageDecoder.Message, limit: Int) -> Bool {
        messages += 1
        // Event timestamps (1/1024 s), as the SDK's accumulator gives them.
        var events: [Int64] = []
        let twelve = m.fieldBytes(10)
        if let b = m.bytes(twelve) {
            let n = b.count * 8 / 12
            events.reserveCapacity(n)
            for k in 0..<n {
                let bit = 12 * k
                let lo = Int64(b[bit / 8]), hi = bit / 8 + 1 < b.count ? Int64(b[bit / 8 + 1]) : 0
                let raw = ((lo | hi << 8) >> Int64(bit % 8)) & 0xFFF
                if let a = accumulated { accumulated = a + ((raw - lastRaw) & 0xFFF) } else { accumulated = raw }
                lastRaw = raw
                events.append(accumulated!)
            }
        } else {
            events = m.integers(9)
            // A full event timestamp restarts the accumulator (the SDK's `createAccumulatedField`).
            if let last = events.last { accumulated = last; lastRaw = last }
        }
        let beats = m.integers(6)
        if let ts = m.uint(253) {
            let fraction = m.uint(1).map { Double($0) / 256 } ?? m.uint(0).map { Double($0) / 32768 } ?? 0
            guard events.count == 1 else { anchor = nil; skipped += 1; return true }
            anchor = (Double(ts) + fraction, Double(events[0]) / 1024)
        }
        guard let anchor, events.count == beats.count, !events.isEmpty else { skipped += 1; return true }
        guard times.count + events.count <= limit else { return false }
        var seconds: [Double] = []
        for e in events {
            var s = Double(e) / 1024
            if s < anchor.event {
                // The strap's 32-bit clock (1/1024 s) rolled over.
                guard anchor.event - s > 0x400000 else { skipped += 1; return true }
                s += 0x400000
            }
            seconds.append(anchor.time + (s - anchor.event))
        }
        times += seconds
        bpm += beats.map { UInt8(truncatingIfNeeded: $0) }
        return true
    }

    /// The merge of the samples into the records, one record at a time in file order.
    public func merge() -> Merge { Merge(self) }

    /// Each record's heart rate as the SDK's `merge_heart_rates` sets it: the samples (and the
    /// SDK's fill of gaps: the last value repeated every 0.25 s for up to 5 s) stamped after the
    /// previous record's time and up to the record's, averaged and rounded half up. A record
    /// stamped as the one before takes the second before it. Nil: the record keeps its own.
    public struct Merge: Sendable {
        private let times: [Double]
        private let bpm: [UInt8]
        /// The position in the filled sequence: sample `sample`, preceded by `fills(sample)`
        /// repeats of the sample before it; `step` < fills: the fill `step + 1`, else the sample.
        private var sample = 0, step = 0
        private var rangeStart: Double?

        init(_ h: FITHeartRateMessages) {
            times = h.times
            bpm = h.bpm
            step = 0
        }

        /// How many fills go before sample `j` (`expand_heart_rates`).
        private func fills(_ j: Int) -> Int {
            guard j > 0 else { return 0 }
            var gap = abs(times[j] - times[j - 1]) * 1000
            var n = 0
            while gap > 250 && n + 1 <= 20 { gap -= 250; n += 1 }
            return n
        }

        private var atEnd: Bool { sample >= times.count }

        private var current: (time: Double, bpm: Int) {
            let f = fills(sample)
            if step < f { return (times[sample - 1] + 0.25 * Double(step + 1), Int(bpm[sample - 1])) }
            return (times[sample], Int(bpm[sample]))
        }

        private mutating func forward() {
            if step < fills(sample) { step += 1 } else { sample += 1; step = 0 }
        }

        private mutating func back() {
            if sample == 0 && step == 0 { return }
            if step > 0 { step -= 1 } else { sample -= 1; step = fills(sample) }
        }

        /// The heart rate of the next record (stamped `time`, FIT seconds), nil: its own.
        public mutating func next(_ time: Double) -> Int? {
            guard !times.isEmpty else { return nil }
            var sum = 0, count = 0
            var start = rangeStart ?? time
            if start == time {
                start -= 1
                back()
            }
            rangeStart = start
            while !atEnd {
                let h = current
                if h.time > start && h.time <= time {
                    sum += h.bpm
                    count += 1
                } else if h.time > time {
                    rangeStart = time
                    return count > 0 ? Int(Double(sum) / Double(count) + 0.5) : nil
                }
                forward()
            }
            return nil
        }
    }
}
