/// The `export` reply (docs/protocol.md): the workout's file as `content` (text, or base64 for a
/// binary format, with `"encoding":"base64"`), or, when workoutctl passed a descriptor to write
/// into, how many `bytes` were written. The daemon writes it with `write(to:)`; workoutctl reads
/// it with `init(json:)`.
public struct ExportReply: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        /// The file in the reply; `base64` for a binary format.
        case content(String, base64: Bool)
        /// Written into the descriptor workoutctl passed.
        case written(bytes: Int)
    }

    /// The format's name as sent (`ExportFormat`'s raw value).
    public var format: String?
    public var body: Body?

    public init(format: ExportFormat, body: Body) { self.format = format.rawValue; self.body = body }

    /// The whole reply, `{"ok":true,...}`, streamed: the content is written once, not copied
    /// into a tree first.
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("ok"); w.raw("true")
        w.key("format"); w.string(format)
        switch body {
        case .content(let text, let base64)?:
            w.key("content"); w.string(text)
            if base64 { w.key("encoding"); w.string("base64") }
        case .written(let n)?:
            w.key("bytes"); w.int(n)
        case nil:
            break
        }
        w.endObject()
    }

    /// Tolerant: `body` is nil without `content` or `bytes`.
    public init(json r: JSON) {
        format = r["format"]?.stringValue
        if let text = r["content"]?.stringValue {
            body = .content(text, base64: r["encoding"]?.stringValue == "base64")
        } else if let n = r["bytes"]?.intValue {
            body = .written(bytes: n)
        }
    }

    /// The content's bytes: the text's UTF-8, or the base64 decoded (nil: not valid base64 or no content).
    public var contentBytes: [UInt8]? {
        switch body {
        case .content(let text, let base64)?: base64 ? Base64.decode(text) : Array(text.utf8)
        case .written?, nil: nil
        }
    }
}
