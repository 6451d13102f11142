// TEMPORARY SHIM: replaced by the streaks branch's Logfmt renderer at merge.
public enum Logfmt {
    public enum Style { case journald, plain }
    public static func render(_ e: some LogEvent, style: Style, time: Double) -> String {
        var s = style == .journald ? "<\(e.level.rawValue)>" : ISO8601.format(time, fractionDigits: 3) + " " + e.level.label + " "
        s += e.message + " event=" + e.name
        for (k, v) in e.fields {
            switch v {
            case .string(let t): s += " \(k)=\"\(t)\""
            case .int(let i): s += " \(k)=\(i)"
            case .double(let d, let n): s += " \(k)=\(formatFixed(d, decimals: n))"
            case .bool(let b): s += " \(k)=\(b)"
            }
        }
        return s
    }
}
