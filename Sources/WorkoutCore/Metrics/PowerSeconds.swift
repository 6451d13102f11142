/// Power readings held over time, cut into whole seconds for `PowerAnalysis`, with the exact
/// work. A reading holds from its time until the next one (or its run's end); a second is
/// analysed when it is over, with the time-weighted mean of what held in it, if power held for
/// at least half of it (a second at the edge of a dropout is left out).
struct PowerSeconds: Sendable {
    private(set) var analysis: PowerAnalysis
    /// Joules: watts x seconds held, exactly.
    private(set) var work = 0.0
    /// Seconds a reading held.
    private(set) var covered = 0.0
    private var openSecond = Int.min
    private var openEnergy = 0.0
    private var openCoverage = 0.0

    init(ftp: Double?) { analysis = PowerAnalysis(ftp: ftp) }

    /// `watts` held from `a` to `b` (times increasing from call to call).
    mutating func hold(_ watts: Double, from a: Double, to b: Double) {
        guard b > a, a.isFinite, b.isFinite else { return }
        work += watts * (b - a)
        covered += b - a
        var t = a
        while t < b {
            let s = Int(t.rounded(.down))
            let end = min(b, Double(s) + 1)
            if s != openSecond {
                guard s > openSecond else { t = end; continue }  // before the open second: already analysed
                flush()
                openSecond = s
            }
            openEnergy += watts * (end - t)
            openCoverage += end - t
            t = end
        }
    }

    /// Analyses the open second (the workout ends, or a copy is brought to a time after it).
    mutating func flush() {
        if openCoverage >= 0.5 { analysis.add(second: openSecond, watts: openEnergy / openCoverage) }
        openEnergy = 0
        openCoverage = 0
    }
}
