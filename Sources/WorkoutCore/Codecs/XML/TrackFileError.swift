/// Why a GPX or TCX file could not be imported. Nothing is imported when this is thrown.
public struct TrackFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Format: String, Sendable, Equatable {
        case gpx = "GPX"
        case tcx = "TCX"
    }

    public enum Reason: Sendable, Equatable {
        /// Not well-formed XML (truncated, mismatched tags, bad entity, invalid UTF-8, ...).
        case malformedXML(XMLError.Reason)
        /// The document's root element is not `gpx` / `TrainingCenterDatabase`.
        case wrongRootElement(found: String, expected: String)
        case missingAttribute(element: String, attribute: String)
        /// A number that does not parse, is not finite, or is out of its type's range.
        case badNumber(field: String, text: String)
        /// A time that is not an ISO-8601 date-time.
        case badTime(field: String, text: String)
        /// Latitude outside [-90, 90] or longitude outside [-180, 180].
        case coordinateOutOfRange(field: String, value: Double)
        /// A GPX file without a single track point (only waypoints or routes, or nothing).
        case noTrackPoints
        /// A TCX file without an `<Activity>` (courses or workouts only).
        case noActivities
    }

    public var format: Format
    public var reason: Reason
    /// 1-based line where the problem was found.
    public var line: Int
    /// Byte offset where the problem was found.
    public var offset: Int

    public init(format: Format, reason: Reason, line: Int, offset: Int) {
        self.format = format
        self.reason = reason
        self.line = line
        self.offset = offset
    }

    public var reasonText: String {
        switch reason {
        case .malformedXML(let r): return r.text
        case .wrongRootElement(let found, let expected): return "root element is <\(found)>, expected <\(expected)>"
        case .missingAttribute(let element, let attribute): return "<\(element)> without its '\(attribute)' attribute"
        case .badNumber(let field, let text): return "bad number '\(text)' in \(field)"
        case .badTime(let field, let text): return "bad time '\(text)' in \(field)"
        case .coordinateOutOfRange(let field, let value): return "\(field) \(value) out of range"
        case .noTrackPoints: return "no track points"
        case .noActivities: return "no activities"
        }
    }

    public var description: String { "\(format.rawValue) import failed at line \(line): \(reasonText)" }
}
