import WorkoutCore

/// The decoder behind one network source: gpsd's JSON or raw NMEA. Bytes in, fixes out,
/// bad input counted by reason (never thrown).
enum StreamDecoder {
    case gpsd(GpsdReader)
    case nmea(NMEADecoder)

    init(for feed: FeedConfig) {
        switch feed {
        case .gpsd: self = .gpsd(GpsdReader())
        case .nmea, .socket: self = .nmea(NMEADecoder())
        }
    }

    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ emit: (Fix) -> Void) {
        switch self {
        case .gpsd(var r):
            self = .nmea(NMEADecoder())  // release the payload so the reader mutates in place
            r.feed(bytes, emit)
            self = .gpsd(r)
        case .nmea(var d):
            self = .gpsd(GpsdReader())
            d.feed(bytes) { emit($0.fix) }
            self = .nmea(d)
        }
    }

    /// Rejected input by reason, for `status`.
    var rejected: [String: Int] {
        switch self {
        case .gpsd(let r): return r.stats.rejectionCounts
        case .nmea(let d): return d.stats.rejectionCounts
        }
    }
}
