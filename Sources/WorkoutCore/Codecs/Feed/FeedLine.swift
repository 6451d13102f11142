/// The JSON lines of the feed socket that `workoutctl simulate` writes, beside the decoder that
/// reads them (`FeedSocketDecoder`; docs/protocol.md): a fix, the simulation header and the
/// segment break. Heart-rate lines are `HeartRateReading.line`.
public enum FeedLine {
    /// `{"class":"FIX","time":..,"lat":..,"lon":..}` with `alt`, `speed`, `track`, `hr`, `cad`
    /// and `power` where the fix has them; whole seconds without a fraction.
    public static func fix(_ f: Fix) -> String {
        var o = JSONObject()
        o["class"] = "FIX"
        o["time"] = .string(time(f.time))
        o["lat"] = .number(f.latitude)
        o["lon"] = .number(f.longitude)
        if let a = f.altitude { o["alt"] = .number(a) }
        if let v = f.speed { o["speed"] = .number(v) }
        if let c = f.course { o["track"] = .number(c) }
        if let hr = f.heartRate { o["hr"] = .int(hr) }
        if let cad = f.cadence { o["cad"] = .int(cad) }
        if let w = f.power { o["power"] = .int(w) }
        return JSON.object(o).serialized()
    }

    /// The header that tells the daemon the feed's clock is a simulation at `speed`, and whether
    /// the lines are a track a device already recorded (`FeedReplay.origin`).
    public static func simulation(speed: Double, recordedTrack: Bool) -> String {
        var o = JSONObject([("class", "SIMULATION"), ("speed", .number(speed))])
        if recordedTrack { o["recordedTrack"] = true }
        return JSON.object(o).serialized()
    }

    /// The untimed line that breaks the track between two segments.
    public static let segmentBreak = #"{"class":"SEGMENT"}"#

    /// Whether a parsed line is a simulation header.
    public static func isSimulationHeader(_ j: JSON) -> Bool { j["class"]?.stringValue == "SIMULATION" }

    /// The time a parsed line carries (nil: untimed or not a time).
    public static func time(of j: JSON) -> Double? { j["time"]?.stringValue.flatMap { ISO8601.parse($0) } }

    /// A JSON line with its time replaced by `t`; nil when the line is no JSON object.
    public static func retimed(_ line: String, to t: Double) -> String? {
        guard var o = (try? JSON.parse(line))?.objectValue else { return nil }
        o["time"] = .string(time(t))
        return JSON.object(o).serialized()
    }

    /// A time as the lines write it: whole seconds without a fraction, else milliseconds.
    static func time(_ t: Double) -> String { ISO8601.format(t, fractionDigits: t == t.rounded() ? 0 : 3) }
}
