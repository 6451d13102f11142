/// One GPS source from the `feeds` list, tried in order with failover.
public enum FeedConfig: Sendable, Equatable {
    /// gpsd's JSON protocol, as a client: `{"kind":"gpsd","address":"127.0.0.1:2947"}`
    case gpsd(host: String, port: UInt16)
    /// Raw NMEA 0183 from a TCP server: `{"kind":"nmea","address":"127.0.0.1:10110"}`
    case nmea(host: String, port: UInt16)
    /// The daemon's own feed socket (NMEA or JSON fix lines): `{"kind":"socket","path":"..."}`
    case socket(path: String)

    /// Words for `status` and logs ("gpsd at 127.0.0.1:2947").
    public var label: String {
        switch self {
        case .gpsd(let h, let p): return "gpsd at \(h):\(p)"
        case .nmea(let h, let p): return "NMEA server at \(h):\(p)"
        case .socket(let path): return "feed socket \(path)"
        }
    }

    public var kind: String {
        switch self {
        case .gpsd: return "gpsd"
        case .nmea: return "nmea"
        case .socket: return "socket"
        }
    }
}
