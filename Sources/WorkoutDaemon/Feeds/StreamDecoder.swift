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
        case .gpsd(let r):
            let s = r.stats
            return ["gpsd_invalid_json": s.invalidJSON, "gpsd_not_object": s.notAnObject, "gpsd_wrong_type": s.wrongType,
                    "gpsd_too_long": s.tooLong].filter { $0.value > 0 }
        case .nmea(let d):
            let s = d.stats
            return ["nmea_bad_checksum": s.badChecksum, "nmea_missing_checksum": s.missingChecksum, "nmea_too_long": s.tooLong,
                    "nmea_malformed": s.malformed, "nmea_not_nmea": s.notNMEA].filter { $0.value > 0 }
        }
    }
}
