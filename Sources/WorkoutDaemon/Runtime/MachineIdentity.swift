import Glibc
import WorkoutCore

/// This machine as the history folder knows it: its tag (`MachineTag`, drawn at random at the
/// first start and kept in the state directory, which is never shared) and its host name.
/// Two daemons sharing a history folder, even on one computer, have their own state
/// directories and so their own tags.
enum MachineIdentity {
    /// The tag kept at `path`, or a new one written there.
    static func tag(at path: String) -> MachineTag {
        if let bytes = try? readFile(path, limit: 256) {
            let text = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init) ?? ""
            if let tag = MachineTag(rawValue: text) { return tag }
        }
        let tag = MachineTag(random: UInt64.random(in: 0...UInt64.max))
        // Should the write fail, the tag is new at every start: IDs stay distinct all the same.
        try? AtomicFile.write(Array((tag.rawValue + "\n").utf8), to: path)
        return tag
    }

    /// The host name (`gethostname`), for people reading a revision.
    static func hostName() -> String {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, buf.count - 1) == 0 else { return "" }
        return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
