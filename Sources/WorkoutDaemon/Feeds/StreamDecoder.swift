import WorkoutCore

/// The decoder behind one network source: gpsd's JSON or raw NMEA. Bytes in, fixes out,
/// bad input counted by reason (never thrown).
enum StreamDecoder {
    case gpsd(GpsdReader)
    case nmea(NMEADecoder)
    /// Only inside `feed`, while the payload is mutated in place (no copy of its buffers; the
    /// lifecycle's idiom). Observing it elsewhere is a bug of this file.
    case modifying

    init(for feed: FeedConfig) {
        switch feed {
        case .gpsd: self = .gpsd(GpsdReader())
        case .nmea, .socket: self = .nmea(NMEADecoder())
        }
    }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Fix) -> Void) {
        switch self {
        case .gpsd(var r):
            self = .modifying  // release the payload so the reader mutates in place
            r.feed(bytes, emit)
            self = .gpsd(r)
        case .nmea(var d):
            self = .modifying
            d.feed(bytes) { emit($0.fix) }
            self = .nmea(d)
        case .modifying:
            assertionFailure("StreamDecoder fed while modifying")
        }
    }

    /// Rejected input by reason, for `status`.
    var rejected: [String: Int] {
        switch self {
        case .gpsd(let r): return r.stats.rejectionCounts
        case .nmea(let d): return d.stats.rejectionCounts
        case .modifying: return [:]  // asked from inside `feed` (a fix's report closed the source): that read's rejections go uncounted
        }
    }
}
