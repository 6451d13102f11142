/// The head of a native workout file: what the history catalog needs of a file (`format`,
/// `revision`, `source`, `summary`), read without the events and points that follow, so that
/// 10,000 files arriving from another machine are indexed from their first kilobytes.
extension WorkoutFile {
    public struct Head: Sendable, Equatable {
        public var summary: WorkoutSummary
        public var source: String
        public var revision: Revision?
        /// The events, when asked for (`Part.summaryAndEvents`); nil otherwise.
        public var events: [WorkoutEvent]? = nil

        public init(summary: WorkoutSummary, source: String, revision: Revision?, events: [WorkoutEvent]? = nil) {
            self.summary = summary; self.source = source; self.revision = revision; self.events = events
        }
    }

    /// How much of the file's beginning `decodeHead` reads.
    public enum Part: Sendable {
        /// `format`, `revision`, `source`, `summary`: what the catalog needs.
        case summary
        /// And the `events` that follow (what `show` needs): never the points.
        case summaryAndEvents
    }

    /// Why a head could not be read.
    public enum HeadError: Error, Sendable, Equatable, CustomStringConvertible {
        /// `bytes` ends before the summary does: read more of the file (or it is cut short).
        case needsMore
        case invalid(DecodeError)

        public var description: String {
            switch self {
            case .needsMore: return "the file ends before its summary"
            case .invalid(let e): return e.description
            }
        }
    }

    /// Reads the head from the first bytes of a file (all of it, or a prefix). Members are read
    /// until `events` or `points` (the writer puts them last) or the end of the object.
    public static func decodeHead(_ bytes: ArraySlice<UInt8>, part: Part = .summary) throws(HeadError) -> Head {
        let result: Result<Head, HeadError> = bytes.withUnsafeBufferPointer { buf in
            var p = JSONParser(buf)
            var format: String?, source: String?, revision: Revision?, summary: WorkoutSummary?, events: [WorkoutEvent]?
            do {
                p.skipSpace()
                guard p.i < buf.count else { return .failure(.needsMore) }
                guard buf[p.i] == UInt8(ascii: "{") else { return .failure(.invalid(.notJSON("not a JSON object"))) }
                p.i += 1
                members: while true {
                    p.skipSpace()
                    guard p.i < buf.count else { return .failure(.needsMore) }
                    if buf[p.i] == UInt8(ascii: "}") { break }
                    let key = try p.string()
                    p.skipSpace()
                    guard p.i < buf.count else { return .failure(.needsMore) }
                    guard buf[p.i] == UInt8(ascii: ":") else { return .failure(.invalid(.notJSON("expected ':' at byte \(p.i)"))) }
                    p.i += 1
                    p.skipSpace()
                    switch key {
                    case "points": break members
                    case "events":
                        switch part {
                        case .summary: break members
                        case .summaryAndEvents: events = (try p.value(depth: 1)).arrayValue?.compactMap(WorkoutEvent.init(json:)) ?? []
                        }
                    case "format": format = try p.value(depth: 1).stringValue
                    case "source": source = try p.value(depth: 1).stringValue
                    case "revision": revision = Revision(json: try p.value(depth: 1))
                    case "summary":
                        guard let s = WorkoutSummary(json: try p.value(depth: 1)) else { return .failure(.invalid(.badSummary)) }
                        summary = s
                    default: _ = try p.value(depth: 1)
                    }
                    p.skipSpace()
                    guard p.i < buf.count else { return .failure(.needsMore) }
                    if buf[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                    if buf[p.i] == UInt8(ascii: "}") { break }
                    return .failure(.invalid(.notJSON("expected ',' or '}' at byte \(p.i)")))
                }
            } catch let e as JSONParseError {
                // Running off the end is a short read; anything before the end is damage.
                return .failure(e.offset >= buf.count || e.reason.contains("end of input") ? .needsMore : .invalid(.notJSON(e.description)))
            } catch {
                return .failure(.invalid(.notJSON("unreadable")))
            }
            guard let format else { return .failure(.invalid(.wrongFormat("none"))) }
            guard format == WorkoutFile.format else { return .failure(.invalid(.wrongFormat(format))) }
            guard let summary else { return .failure(.invalid(.badSummary)) }
            let wanted: [WorkoutEvent]?
            switch part {
            case .summary: wanted = nil
            case .summaryAndEvents: wanted = events ?? []
            }
            return .success(Head(summary: summary, source: source ?? "recorded", revision: revision, events: wanted))
        }
        return try result.get()
    }
}
