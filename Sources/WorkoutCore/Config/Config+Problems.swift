/// Every problem of a configuration, not just the first (`workoutd --check-config`): the
/// strict decoder stops at the first error, so the offending key is taken out of the document
/// and it is decoded again, until it decodes or nothing more can be taken out (at most
/// `maximumProblems` rounds). A key reported again once taken out (a feed's bad `kind` is then
/// a missing one) is not said twice: its parent object is taken out instead.
extension Config {
    /// Most problems reported for one file.
    public static let maximumProblems = 50

    /// The problems of `text` in file order of discovery; empty when it is a valid configuration.
    public static func problems(json text: String) -> [ConfigError] {
        var value: JSON
        do { value = try JSON.parse(text) } catch {
            do { _ = try decode(json: text) } catch let e { return [e] }
            return []
        }
        var found: [ConfigError] = []
        var removed: [String] = []
        while found.count < maximumProblems {
            do {
                _ = try decode(json: value.serialized())
                return found
            } catch let e {
                var path = Config.keyPath(e.key)
                if removed.last == e.key {
                    path.removeLast()  // the same key again (taking it out made it missing): its parent goes, unsaid
                } else {
                    found.append(e)
                }
                guard !path.isEmpty, Config.remove(path, from: &value) else { return found }
                removed.append(e.key)
            }
        }
        return found
    }

    /// One step of a key path: an object member or an array index.
    enum PathStep: Equatable { case member(String), index(Int) }

    /// "feeds[1].address" -> [feeds, 1, address].
    static func keyPath(_ key: String) -> [PathStep] {
        var out: [PathStep] = []
        for part in key.split(separator: ".", omittingEmptySubsequences: true) {
            var name = Substring(part)
            var indices: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "["), let i = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) {
                indices.insert(i, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { out.append(.member(String(name))) }
            out += indices.map(PathStep.index)
        }
        return out
    }

    /// Takes the value at `path` out of `value`; false when there is none.
    static func remove(_ path: [PathStep], from value: inout JSON) -> Bool {
        guard let first = path.first else { return false }
        let rest = Array(path.dropFirst())
        switch (value, first) {
        case (.object(var o), .member(let k)):
            guard var child = o[k] else { return false }
            if rest.isEmpty { o[k] = nil } else {
                guard remove(rest, from: &child) else { return false }
                o[k] = child
            }
            value = .object(o)
            return true
        case (.array(var a), .index(let i)):
            guard a.indices.contains(i) else { return false }
            if rest.isEmpty { a.remove(at: i) } else {
                var child = a[i]
                guard remove(rest, from: &child) else { return false }
                a[i] = child
            }
            value = .array(a)
            return true
        default:
            return false
        }
    }
}
