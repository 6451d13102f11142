/// Why bytes are not a Cycling Power, CSC or RSC Measurement.
public enum BikeSensorMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// The flags promise a field the value is too short for (field name, bytes needed, bytes left).
    case truncated(field: String, needed: Int, remaining: Int)

    public var description: String {
        switch self {
        case .empty: return "empty sensor measurement"
        case .truncated(let f, let n, let r): return "sensor measurement too short for \(f) (needs \(n) bytes, \(r) left)"
        }
    }
}
