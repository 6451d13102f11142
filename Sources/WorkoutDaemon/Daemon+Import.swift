import WorkoutCore

extension Daemon {
    /// Imports one file into history: nothing is written unless the whole file parses.
    func importFile(_ path: String, activity: ActivityType?) -> JSON {
        func result(_ id: WorkoutID?, _ r: String, _ error: String? = nil) -> JSON {
            var o = JSONObject([("file", .string(path)), ("id", .string(id?.rawValue)), ("result", .string(r))])
            if let error { o["error"] = .string(error) }
            return .object(o)
        }
        let name = String(path.split(separator: "/").last ?? Substring(path))
        do {
            let bytes = try readFile(path, limit: 512 << 20)
            let track = try Importer.read(bytes, fileName: name)
            let w = try Importer.workout(from: track, activity: activity, id: UInt16.random(in: 0...UInt16.max),
                                         settings: metricsSettings(), source: "imported:" + name)
            if let dup = store.summaries().first(where: { Importer.isDuplicate(w.summary, of: $0) }) {
                return result(dup.id, "duplicate")
            }
            try store.save(w)
            log(DaemonLogEvent.imported(file: path, id: w.id.rawValue))
            return result(w.id, "imported")
        } catch let e as Importer.Failure {
            log(DaemonLogEvent.importFailed(file: path, reason: e.description))
            return result(nil, "error", e.description)
        } catch {
            log(DaemonLogEvent.importFailed(file: path, reason: "\(error)"))
            return result(nil, "error", "\(error)")
        }
    }
}
