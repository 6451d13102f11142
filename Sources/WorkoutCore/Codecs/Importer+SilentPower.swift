extension Importer {
    /// The warning of a file whose power field reads 0 in every record.
    public static let silentPowerWarning = "power is 0 in every record: no power meter, power left out (calories from heart rate or speed)"
}

extension Importer.Track {
    /// A power field that reads 0 in every record is no power meter (a head unit that writes
    /// the field without one): the readings are left out, so the workout has no power, no 0 W
    /// average, and its calories come from heart rate or speed. Returns whether it dropped any.
    /// One reading above 0 keeps them all (a meter's zeros count, as the device counts them).
    mutating func dropSilentPower() -> Bool {
        var zero = false
        for f in fixes { if let p = f.power { if p > 0 { return false }; zero = true } }
        for s in sensors { if let p = s.reading?.power { if p > 0 { return false }; zero = true } }
        guard zero else { return false }
        for k in fixes.indices { fixes[k].power = nil }
        for k in sensors.indices where sensors[k].reading?.power != nil { sensors[k].reading?.power = nil }
        sensors.removeAll { $0.reading?.isEmpty ?? false }
        return true
    }
}
