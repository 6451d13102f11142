/// Export formats offered by `export`.
public enum ExportFormat: String, Sendable, CaseIterable {
    case gpx, tcx, json, fit

    /// FIT is binary: over the JSON control socket its content travels as base64.
    public var isBinary: Bool {
        switch self {
        case .gpx, .tcx, .json: return false
        case .fit: return true
        }
    }
}

/// A request on the control socket: one JSON object per line with a `"command"` key
/// (docs/protocol.md). Decoding is pure and total: any input gives a request or a typed error.
public enum ControlRequest: Sendable, Equatable {
    case start(ActivityType)
    /// `start ACTIVITY --plan FILE`: the plan file's bytes travel with the request (the daemon
    /// reads them with the configuration's FTP; a bad plan refuses the start).
    case startPlanned(ActivityType, PlanFile)
    /// Ends the plan's current step early (a lap press).
    case next
    case pause
    case resume
    case lap
    case marker(String?)
    case stop
    case toggle
    case status
    /// Subscribe: the connection receives an event line after every change until it closes.
    case watch
    case activities
    case list(ListFilter)
    case show(WorkoutID)
    case export(WorkoutID, ExportFormat)
    case importFiles([String], ActivityType?)
    /// Import of files the client opened: one descriptor per item arrives with the request
    /// (SCM_RIGHTS); the daemon never opens a path (docs/protocol.md).
    case importDescriptors([ImportItem], ActivityType?)
    /// Export written by the daemon into the one descriptor that arrives with the request.
    case exportTo(WorkoutID, ExportFormat)
    /// Changes a saved workout's activity (its numbers are recomputed from its points), title,
    /// notes, gear or effort.
    case edit(WorkoutID, WorkoutEdit)
    /// Recomputes a saved workout from its fixes with changed metrics settings (`"set"`);
    /// `save` keeps the result.
    case recompute(WorkoutID, [MetricsOverride], save: Bool)
    case delete(WorkoutID)
    case undelete(WorkoutID)
    case streak
    /// Count, distance, moving time and climb of this and the previous week, month or year.
    case totals(TotalsPeriod, ActivityType?)
    case reload
    /// The URL (with its token) that opens the web pages: the history, or one workout
    /// (`workoutctl open [ID]`).
    case web(WorkoutID?)
    /// A workout's charts for the terminal (`workoutctl show ID --charts`): `columns` values each.
    case charts(WorkoutID, columns: Int)
    /// `fitness`, `power-curve`, `records`: the history's training (`AnalyticsRequest`).
    case analytics(AnalyticsRequest)

    public var commandName: String {
        switch self {
        case .start, .startPlanned: return "start"
        case .next: return "next"
        case .pause: return "pause"
        case .resume: return "resume"
        case .lap: return "lap"
        case .marker: return "marker"
        case .stop: return "stop"
        case .toggle: return "toggle"
        case .status: return "status"
        case .watch: return "watch"
        case .activities: return "activities"
        case .list: return "list"
        case .show: return "show"
        case .export: return "export"
        case .importFiles, .importDescriptors: return "import"
        case .exportTo: return "export"
        case .edit: return "edit"
        case .recompute: return "recompute"
        case .delete: return "delete"
        case .undelete: return "undelete"
        case .streak: return "streak"
        case .totals: return "totals"
        case .reload: return "reload"
        case .web: return "web"
        case .charts: return "charts"
        case .analytics(let a): return a.commandName
        }
    }
}

/// A plan file sent with `start` (`"plan": {"file": NAME, "base64": CONTENT}`): its name for
/// messages and its bytes, at most `PlanDecoder.maxBytes`.
public struct PlanFile: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) { self.name = name; self.bytes = bytes }

    public func json() -> JSON { ["file": .string(name), "base64": .string(Base64.encode(bytes))] }

    static func decode(_ j: JSON) -> Result<PlanFile, ProtocolError> {
        guard let text = j["base64"]?.stringValue else { return .failure(.badRequest("\"plan\" is {\"file\": NAME, \"base64\": CONTENT}")) }
        guard text.utf8.count <= (PlanDecoder.maxBytes / 3 + 1) * 4 else {
            return .failure(ProtocolError(code: "bad_plan", message: "the plan file is larger than \(PlanDecoder.maxBytes) bytes"))
        }
        guard let bytes = Base64.decode(text) else { return .failure(.badRequest("\"plan.base64\" is not base64")) }
        return .success(PlanFile(name: j["file"]?.stringValue ?? "plan", bytes: bytes))
    }
}

/// One file of an `import` by descriptor: the name the client knows it by (for messages and
/// the workout's source) and, from a Strava `activities.csv`, its activity, title, notes, gear
/// and perceived effort.
public struct ImportItem: Sendable, Equatable {
    public var file: String
    public var activity: ActivityType?
    public var title: String?
    public var notes: String?
    public var gear: String?
    /// 1-10.
    public var effort: Int?
    public init(file: String, activity: ActivityType? = nil, title: String? = nil, notes: String? = nil, gear: String? = nil, effort: Int? = nil) {
        self.file = file; self.activity = activity; self.title = title; self.notes = notes; self.gear = gear; self.effort = effort
    }

    /// The item as the request carries it: `{"file", "activity"?, "title"?, "notes"?, "gear"?, "effort"?}`.
    public var json: JSON {
        var d = JSONObject([("file", .string(file))])
        if let a = activity { d["activity"] = .string(a.rawValue) }
        for (key, text) in [("title", title), ("notes", notes), ("gear", gear)] {
            if let text { d[key] = .string(text) }
        }
        if let effort { d["effort"] = .int(effort) }
        return .object(d)
    }
}

extension ControlRequest {
    /// How many descriptors (SCM_RIGHTS) the request line carries.
    public var descriptorCount: Int {
        switch self {
        case .importDescriptors(let items, _): return items.count
        case .exportTo: return 1
        case .start, .startPlanned, .next, .pause, .resume, .lap, .marker, .stop, .toggle, .status, .watch, .activities, .list, .show,
             .export, .importFiles, .edit, .recompute, .delete, .undelete, .streak, .reload, .totals, .web, .charts, .analytics:
            return 0
        }
    }

    /// Most descriptors one import request may carry (the kernel passes at most 253 per message).
    /// Each request's end is a pause in an import's pipeline (its last group is synced before
    /// the reply), so fewer, larger requests import a folder faster.
    public static let maxDescriptors = 250
}

/// Filters of `list`: start date range (UTC seconds) and activity.
public struct ListFilter: Sendable, Equatable {
    public var from: Double?
    public var to: Double?
    public var activity: ActivityType?
    public var limit: Int?
    public init(from: Double? = nil, to: Double? = nil, activity: ActivityType? = nil, limit: Int? = nil) {
        self.from = from; self.to = to; self.activity = activity; self.limit = limit
    }
}

/// A protocol-level error: stable `code`, human `message`.
public struct ProtocolError: Error, Sendable, Equatable {
    public var code: String
    public var message: String
    public init(code: String, message: String) { self.code = code; self.message = message }

    public static func badRequest(_ message: String) -> ProtocolError { ProtocolError(code: "bad_request", message: message) }
}

extension ControlRequest {
    /// Decodes one request line (without its newline).
    public static func decode(line: UnsafeBufferPointer<UInt8>) -> Result<ControlRequest, ProtocolError> {
        let value: JSON
        do { value = try JSON.parse(line) } catch let e as JSONParseError {
            return .failure(.badRequest("request is not valid JSON: \(e.description)"))
        } catch { return .failure(.badRequest("request is not valid JSON")) }
        return decode(value)
    }

    public static func decode(_ value: JSON) -> Result<ControlRequest, ProtocolError> {
        guard let obj = value.objectValue else { return .failure(.badRequest("request must be a JSON object, got \(value.typeName)")) }
        guard let commandValue = obj["command"] else { return .failure(.badRequest("request has no \"command\" key")) }
        guard let command = commandValue.stringValue else { return .failure(.badRequest("\"command\" must be a string, got \(commandValue.typeName)")) }
        func string(_ k: String, required: Bool) -> Result<String?, ProtocolError> {
            guard let v = obj[k], !v.isNull else {
                return required ? .failure(.badRequest("\(command) needs \"\(k)\"")) : .success(nil)
            }
            guard let s = v.stringValue else { return .failure(.badRequest("\"\(k)\" must be a string, got \(v.typeName)")) }
            return .success(s)
        }
        func workoutID() -> Result<WorkoutID, ProtocolError> {
            switch string("id", required: true) {
            case .failure(let e): return .failure(e)
            case .success(let s):
                guard let s, let id = WorkoutID(rawValue: s) else {
                    return .failure(ProtocolError(code: "bad_id", message: "'\(s ?? "")' is not a workout id (see `workoutctl list`)"))
                }
                return .success(id)
            }
        }
        func activity(required: Bool) -> Result<ActivityType?, ProtocolError> {
            switch string("activity", required: required) {
            case .failure(let e): return .failure(e)
            case .success(nil): return .success(nil)
            case .success(let s?):
                guard let a = ActivityType(userInput: s) else {
                    return .failure(ProtocolError(code: "unknown_activity", message: "unknown activity '\(s)'; `workoutctl activities` lists them"))
                }
                return .success(a)
            }
        }
        switch command {
        case "start":
            guard let plan = obj["plan"], !plan.isNull else { return activity(required: true).map { .start($0!) } }
            return PlanFile.decode(plan).flatMap { file in activity(required: true).map { .startPlanned($0!, file) } }
        case "next": return .success(.next)
        case "pause": return .success(.pause)
        case "resume": return .success(.resume)
        case "lap": return .success(.lap)
        case "marker": return string("text", required: false).map { .marker($0) }
        case "stop": return .success(.stop)
        case "toggle": return .success(.toggle)
        case "status": return .success(.status)
        case "watch": return .success(.watch)
        case "activities": return .success(.activities)
        case "streak": return .success(.streak)
        case "totals":
            return string("per", required: false).flatMap { p in
                guard let per = TotalsPeriod(rawValue: p ?? "week") else {
                    return .failure(.badRequest("\"per\" must be week, month or year, not '\(p ?? "")'"))
                }
                return activity(required: false).map { .totals(per, $0) }
            }
        case "reload": return .success(.reload)
        case "web":
            guard obj["id"].map({ !$0.isNull }) == true else { return .success(.web(nil)) }
            return workoutID().map { .web($0) }
        case "charts":
            return workoutID().flatMap { id in
                guard let v = obj["columns"], !v.isNull else { return .success(.charts(id, columns: 120)) }
                guard let n = v.intValue, (8...2000).contains(n) else { return .failure(.badRequest("\"columns\" must be a whole number from 8 to 2000")) }
                return .success(.charts(id, columns: n))
            }
        case "show": return workoutID().map { .show($0) }
        case "delete": return workoutID().map { .delete($0) }
        case "undelete": return workoutID().map { .undelete($0) }
        case "export":
            return workoutID().flatMap { id in
                string("format", required: true).flatMap { f in
                    guard let format = ExportFormat(rawValue: f ?? "") else {
                        return .failure(.badRequest("\"format\" must be gpx, tcx or json, not '\(f ?? "")'"))
                    }
                    if obj["descriptor"]?.boolValue == true { return .success(.exportTo(id, format)) }
                    return .success(.export(id, format))
                }
            }
        case "edit":
            return workoutID().flatMap { id in
                activity(required: false).flatMap { a in decodeEdit(obj, activity: a).map { .edit(id, $0) } }
            }
        case "recompute":
            return workoutID().flatMap { id in
                var overrides: [MetricsOverride] = []
                if let set = obj["set"], !set.isNull {
                    guard let o = set.objectValue else {
                        return .failure(.badRequest("\"set\" must be an object of settings, {\"metrics.KEY\": VALUE}, got \(set.typeName)"))
                    }
                    overrides = o.pairs.map { MetricsOverride(key: $0.key, value: $0.value) }
                }
                var save = false
                if let v = obj["save"], !v.isNull {
                    guard let b = v.boolValue else { return .failure(.badRequest("\"save\" must be true or false, got \(v.typeName)")) }
                    save = b
                }
                return .success(.recompute(id, overrides, save: save))
            }
        case "import" where obj["descriptors"] != nil:
            guard let list = obj["descriptors"]?.arrayValue, !list.isEmpty, list.count <= maxDescriptors else {
                return .failure(.badRequest("\"descriptors\" must be a non-empty array of at most \(maxDescriptors) objects"))
            }
            var items: [ImportItem] = []
            for d in list {
                guard d.objectValue != nil, let file = d["file"]?.stringValue else {
                    return .failure(.badRequest("each of \"descriptors\" needs \"file\": the file's name"))
                }
                var item = ImportItem(file: file)
                if let a = d["activity"], !a.isNull {
                    guard let s = a.stringValue, let act = ActivityType(userInput: s) else {
                        return .failure(ProtocolError(code: "unknown_activity", message: "unknown activity \(a.serialized()) for \(file)"))
                    }
                    item.activity = act
                }
                for (key, target) in [("title", \ImportItem.title), ("notes", \ImportItem.notes), ("gear", \ImportItem.gear)] {
                    guard let t = d[key], !t.isNull else { continue }
                    guard let s = t.stringValue else { return .failure(.badRequest("\"\(key)\" must be a string")) }
                    item[keyPath: target] = s
                }
                if let e = d["effort"], !e.isNull {
                    guard let v = e.intValue, WorkoutAnnotation.effortRange.contains(v) else {
                        return .failure(.badRequest("\"effort\" must be a whole number from 1 to 10"))
                    }
                    item.effort = v
                }
                items.append(item)
            }
            return activity(required: false).map { .importDescriptors(items, $0) }
        case "import":
            guard let files = obj["files"]?.arrayValue, !files.isEmpty else { return .failure(.badRequest("import needs \"files\": a non-empty array of paths")) }
            var paths: [String] = []
            for f in files {
                guard let p = f.stringValue, p.hasPrefix("/") else { return .failure(.badRequest("\"files\" must hold absolute paths as strings")) }
                paths.append(p)
            }
            return activity(required: false).map { .importFiles(paths, $0) }
        case "list":
            var filter = ListFilter()
            for (k, target) in [("from", \ListFilter.from), ("to", \ListFilter.to)] as [(String, WritableKeyPath<ListFilter, Double?>)] {
                switch string(k, required: false) {
                case .failure(let e): return .failure(e)
                case .success(nil): break
                case .success(let s?):
                    guard let t = ISO8601.parse(s) ?? ISO8601.parse(s + "T00:00:00Z") else {
                        return .failure(.badRequest("\"\(k)\" must be a date (YYYY-MM-DD) or an ISO-8601 time, not '\(s)'"))
                    }
                    filter[keyPath: target] = t
                }
            }
            switch activity(required: false) {
            case .failure(let e): return .failure(e)
            case .success(let a): filter.activity = a
            }
            if let l = obj["limit"], !l.isNull {
                guard let n = l.intValue, n > 0 else { return .failure(.badRequest("\"limit\" must be a positive whole number")) }
                filter.limit = n
            }
            return .success(.list(filter))
        default:
            if let a = AnalyticsRequest.decode(command, obj, activity: { activity(required: false) }) { return a.map { .analytics($0) } }
            return .failure(ProtocolError(code: "unknown_command", message: "unknown command '\(command)'"))
        }
    }

    /// The request as a JSON line (used by workoutctl).
    public func encoded() -> JSON {
        var o = JSONObject()
        o["command"] = .string(commandName)
        switch self {
        case .start(let a): o["activity"] = .string(a.rawValue)
        case .startPlanned(let a, let plan): o["activity"] = .string(a.rawValue); o["plan"] = plan.json()
        case .marker(let t): if let t { o["text"] = .string(t) }
        case .show(let id), .delete(let id), .undelete(let id): o["id"] = .string(id.rawValue)
        case .export(let id, let f): o["id"] = .string(id.rawValue); o["format"] = .string(f.rawValue)
        case .exportTo(let id, let f):
            o["id"] = .string(id.rawValue); o["format"] = .string(f.rawValue); o["descriptor"] = true
        case .edit(let id, let e):
            o["id"] = .string(id.rawValue)
            if let a = e.activity { o["activity"] = .string(a.rawValue) }
            for (key, field) in [("title", e.title), ("notes", e.notes), ("gear", e.gear)] {
                if let field { o[key] = .string(field.value) }
            }
            if let effort = e.effort { o["effort"] = .int(effort.value) }
            if let records = e.records { o["records"] = .string(records.rawValue) }
        case .recompute(let id, let overrides, let save):
            o["id"] = .string(id.rawValue)
            o["set"] = .object(JSONObject(overrides.map { ($0.key, $0.value) }))
            if save { o["save"] = true }
        case .importDescriptors(let items, let a):
            o["descriptors"] = .array(items.map(\.json))
            if let a { o["activity"] = .string(a.rawValue) }
        case .importFiles(let files, let a):
            o["files"] = .array(files.map { .string($0) })
            if let a { o["activity"] = .string(a.rawValue) }
        case .list(let f):
            if let v = f.from { o["from"] = .string(ISO8601.format(v)) }
            if let v = f.to { o["to"] = .string(ISO8601.format(v)) }
            if let a = f.activity { o["activity"] = .string(a.rawValue) }
            if let l = f.limit { o["limit"] = .int(l) }
        case .totals(let per, let a):
            o["per"] = .string(per.rawValue)
            if let a { o["activity"] = .string(a.rawValue) }
        case .web(let id): if let id { o["id"] = .string(id.rawValue) }
        case .charts(let id, let columns): o["id"] = .string(id.rawValue); o["columns"] = .int(columns)
        case .analytics(let a): a.encode(into: &o)
        case .pause, .resume, .lap, .next, .stop, .toggle, .status, .watch, .activities, .streak, .reload: break
        }
        return .object(o)
    }
}

extension ControlRequest {
    /// The fields of an `edit` request besides `id` and `activity`: `title`, `notes`, `gear`
    /// (a string; null or "" clears), `effort` (1-10; null clears) and `records` ("counted" or
    /// "excluded"). At least one field.
    static func decodeEdit(_ obj: JSONObject, activity: ActivityType?) -> Result<WorkoutEdit, ProtocolError> {
        var edit = WorkoutEdit(activity: activity)
        for (key, target) in [("title", \WorkoutEdit.title), ("notes", \WorkoutEdit.notes), ("gear", \WorkoutEdit.gear)]
            as [(String, WritableKeyPath<WorkoutEdit, FieldEdit<String>?>)] {
            guard let v = obj[key] else { continue }
            if v.isNull { edit[keyPath: target] = .clear; continue }
            guard let text = v.stringValue else { return .failure(.badRequest("\"\(key)\" must be a string or null, got \(v.typeName)")) }
            edit[keyPath: target] = WorkoutAnnotation.cleaned(text).map { .set($0) } ?? .clear
        }
        if let v = obj["effort"] {
            if v.isNull {
                edit.effort = .clear
            } else {
                guard let n = v.intValue else { return .failure(.badRequest("\"effort\" must be a whole number 1-10 or null, got \(v.serialized())")) }
                edit.effort = .set(n)
            }
        }
        if let v = obj["records"] {
            guard let word = v.stringValue, let r = RecordsInclusion(rawValue: word) else {
                return .failure(.badRequest("\"records\" must be \"counted\" or \"excluded\", got \(v.serialized())"))
            }
            edit.records = r
        }
        if let problem = edit.problem { return .failure(.badRequest(problem)) }
        guard !edit.isEmpty else {
            return .failure(.badRequest("edit needs at least one of \"activity\", \"title\", \"notes\", \"gear\", \"effort\", \"records\""))
        }
        return .success(edit)
    }

    /// Whether the daemon answers it from its bulk worker (import, export, edit, recompute), so
    /// a client waits for the reply with the long timeout, not the one for a loop request.
    public var isBulkWork: Bool {
        switch self {
        case .export, .exportTo, .importFiles, .importDescriptors, .edit, .recompute, .charts: return true
        case .start, .startPlanned, .next, .pause, .resume, .lap, .marker, .stop, .toggle, .status, .watch, .activities, .list, .show,
             .delete, .undelete, .streak, .totals, .reload, .web, .analytics:
            return false
        }
    }

    /// Whether the daemon reads every feed line already sent before it answers
    /// (`FeedHub.catchUp`): the requests that end or mark the workout at this moment, so
    /// `simulate FILE; stop` counts every line the simulation sent. Others (`status` above all)
    /// are answered without it, so a feed flood never delays them (each read turn stays within
    /// the feed's budget).
    public var readsFeedFirst: Bool {
        switch self {
        case .stop, .toggle, .pause, .lap, .next, .marker: return true
        case .start, .startPlanned, .resume, .status, .watch, .activities, .list, .show, .export, .importFiles, .importDescriptors, .exportTo,
             .edit, .recompute, .delete, .undelete, .streak, .totals, .reload, .web, .charts, .analytics:
            return false
        }
    }
}
