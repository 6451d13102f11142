/// The power that fixes carry (a device file's records), each value held from its fix to the
/// next (at most `SensorTrack.maximumSampleInterval`; a fix without power, or a pause, ends it)
/// and cut into whole seconds for `PowerAnalysis`: normalized power, zones and the power curve
/// of an imported ride come from the same series as its average and maximum. Bluetooth power
/// goes through `SensorTrack`, which holds its readings the same way.
struct HeldPower: Sendable {
    private(set) var seconds: PowerSeconds
    private var heldTime = -Double.infinity
    private var heldWatts: Double?

    init(ftp: Double?) { seconds = PowerSeconds(ftp: ftp) }

    /// A fix at `t` with `watts` (nil: none, which ends the value held).
    mutating func add(_ watts: Int?, at t: Double) {
        end(at: t)
        if let watts { heldTime = t; heldWatts = Double(watts) }
    }

    /// The value held stops counting at `t` (a pause, a fix without power).
    mutating func end(at t: Double) {
        guard let w = heldWatts else { return }
        heldWatts = nil
        let end = min(t, heldTime + SensorTrack.maximumSampleInterval)
        if end > heldTime { seconds.hold(w, from: heldTime, to: end) }
    }

    /// The seconds with the value held counted up to `t` and the last second analysed: the
    /// figures of a finished workout.
    func finished(at t: Double) -> PowerSeconds {
        var c = self
        c.end(at: t)
        c.seconds.flush()
        return c.seconds
    }
}
