/// Strava's bulk export: `activities.csv` beside an `activities/` folder of `.fit.gz`,
/// `.gpx.gz`, `.tcx.gz` files. Each row names its file (`Filename`, relative to the folder that
/// holds the CSV), its title (`Activity Name`) and its type (`Activity Type`: Run, Ride, ...),
/// and where the export has the columns its notes (`Activity Description`, then `Activity
/// Private Note`), gear (`Activity Gear`) and perceived effort (`Perceived Exertion`, 1-10).
/// Pure: bytes in, entries out.
public struct StravaActivities: Sendable, Equatable {
    /// One activity of the CSV.
    public struct Entry: Sendable, Equatable {
        public var title: String
        /// Strava's type as written (`Run`, `Trail Run`, `Virtual Ride`, ...).
        public var type: String
        /// The type as a workoutd activity, nil when there is none close enough.
        public var activity: ActivityType?
        /// The description and private note (the two joined by a blank line), nil when empty.
        public var notes: String?
        /// The bike or shoes, as Strava names them; nil when none.
        public var gear: String?
        /// Perceived exertion, 1-10 (Strava writes "7.0"); nil when unset or out of range.
        public var effort: Int?
        public init(title: String, type: String, activity: ActivityType?, notes: String? = nil, gear: String? = nil, effort: Int? = nil) {
            self.title = title; self.type = type; self.activity = activity
            self.notes = notes; self.gear = gear; self.effort = effort
        }
    }

    /// Entries by file name as the CSV writes it (`activities/123.fit.gz`), `./` removed.
    public var byFile: [String: Entry]

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The header lacks a column the import needs.
        case missingColumn(String)
        /// A quoted field never ends.
        case unterminatedQuote(line: Int)
        public var description: String {
            switch self {
            case .missingColumn(let c): return "activities.csv has no \"\(c)\" column"
            case .unterminatedQuote(let line): return "activities.csv: a quoted field opened on line \(line) never closes"
            }
        }
    }

    /// Parses the CSV (RFC 4180: `"`-quoted fields with `""` inside, commas and line breaks in
    /// quotes, CRLF or LF, a UTF-8 BOM). Columns are found by header name (the first of
    /// Strava's duplicated names); rows without a file name (manual entries) are left out.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> StravaActivities {
        let rows = try csvRows(bytes)
        guard let header = rows.first else { throw .missingColumn("Filename") }
        func column(_ name: String) throws(Failure) -> Int {
            guard let i = header.firstIndex(where: { $0.trimmed() == name }) else { throw .missingColumn(name) }
            return i
        }
        let fileCol = try column("Filename"), nameCol = try column("Activity Name"), typeCol = try column("Activity Type")
        /// Columns not every export has (older ones lack `Perceived Exertion`).
        func optional(_ name: String) -> Int? { header.firstIndex { $0.trimmed() == name } }
        let descCol = optional("Activity Description"), privateCol = optional("Activity Private Note")
        let gearCol = optional("Activity Gear"), effortCol = optional("Perceived Exertion")
        var byFile: [String: Entry] = [:]
        for row in rows.dropFirst() {
            guard row.count > fileCol else { continue }
            var file = row[fileCol].trimmed()
            while file.hasPrefix("./") { file.removeFirst(2) }
            guard !file.isEmpty else { continue }
            let type = row.count > typeCol ? row[typeCol].trimmed() : ""
            let title = row.count > nameCol ? row[nameCol] : ""
            func field(_ col: Int?) -> String? {
                guard let col, row.count > col else { return nil }
                let t = row[col].trimmed()
                return t.isEmpty ? nil : t
            }
            let notes = [field(descCol), field(privateCol)].compactMap { $0 }.joined(separator: "\n\n")
            byFile[file] = Entry(title: title, type: type, activity: activity(forStravaType: type), notes: notes.isEmpty ? nil : notes,
                                 gear: field(gearCol), effort: field(effortCol).flatMap(effort(fromStrava:)))
        }
        return StravaActivities(byFile: byFile)
    }

    public init(byFile: [String: Entry]) { self.byFile = byFile }

    /// Strava's perceived exertion ("7", "7.0") as an effort of 1-10, nil otherwise.
    static func effort(fromStrava text: String) -> Int? {
        guard let v = Double(text), v.isFinite else { return nil }
        let e = Int(v.rounded())
        return WorkoutAnnotation.effortRange.contains(e) ? e : nil
    }

    /// The entry of a file, given its path relative to the CSV's folder.
    public func entry(forRelativePath path: String) -> Entry? {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return byFile[String(p)]
    }

    /// Strava's activity types (sport_type names and their display forms) as workoutd activities.
    public static func activity(forStravaType type: String) -> ActivityType? {
        let key = String(type.lowercased().filter { $0.isLetter })
        switch key {
        case "run", "virtualrun": return .running
        case "trailrun": return .trailRunning
        case "walk": return .walking
        case "hike", "snowshoe": return .hiking
        case "ride", "virtualride", "ebikeride", "gravelride", "emountainbikeride", "velomobile", "handcycle":
            return key == "virtualride" ? .indoorCycling : .cycling
        case "mountainbikeride": return .mountainBiking
        case "swim": return .openWaterSwimming
        case "rowing": return .rowing
        case "kayaking", "canoeing": return .kayaking
        case "standuppaddling": return .standUpPaddling
        case "nordicski", "backcountryski": return .crossCountrySkiing
        case "alpineski": return .downhillSkiing
        case "snowboard": return .snowboarding
        case "iceskate": return .skating
        case "inlineskate", "rollerski": return .inlineSkating
        case "sail", "windsurf", "kitesurf": return .sailing
        case "weighttraining", "crossfit": return .strength
        case "highintensityintervaltraining": return .hiit
        case "elliptical": return .elliptical
        case "yoga", "pilates": return .yoga
        case "rockclimbing": return .climbing
        case "dance": return .dance
        case "": return nil
        default: return ActivityType(importedName: type)
        }
    }

    /// The rows of a CSV file, each a list of unquoted fields.
    static func csvRows(_ bytes: [UInt8]) throws(Failure) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var i = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        var line = 1
        var inQuotes = false
        var quoteLine = 0
        var rowHasContent = false
        func endField() { row.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true) }
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 2; continue }
                    inQuotes = false
                } else {
                    if b == 10 { line += 1 }
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                inQuotes = true; quoteLine = line; rowHasContent = true
            case UInt8(ascii: ","):
                endField(); rowHasContent = true
            case 13 where i + 1 < bytes.count && bytes[i + 1] == 10:
                break  // the LF ends the row
            case 10:
                line += 1
                if rowHasContent || !field.isEmpty { endField(); rows.append(row) }
                row = []; rowHasContent = false
            default:
                field.append(b); rowHasContent = true
            }
            i += 1
        }
        if inQuotes { throw .unterminatedQuote(line: quoteLine) }
        if rowHasContent || !field.isEmpty { endField(); rows.append(row) }
        return rows
    }
}

extension String {
    /// Without leading and trailing white space (spaces, tabs, line breaks).
    func trimmed() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}
