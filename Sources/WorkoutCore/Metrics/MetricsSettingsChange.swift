/// One metrics setting that differs between two `MetricsSettings` (a `reload`), named by its
/// configuration key, with both values in words, and whether it reaches a workout in progress.
public struct MetricsSettingsChange: Sendable, Equatable {
    /// The configuration key (`metrics.autoPauseSeconds`, `units`, `weightKg`, ...).
    public var key: String
    public var from: String
    public var to: String
    /// Whether the workout in progress follows it from the moment of the reload (the fix filter,
    /// auto-pause, signal loss and auto-lap rules), or keeps the value it began with until it
    /// ends (split unit, body and heart-rate figures: a workout's splits and calories are never
    /// measured two ways).
    public var live: Bool

    public init(key: String, from: String, to: String, live: Bool) {
        self.key = key; self.from = from; self.to = to; self.live = live
    }

    /// `metrics.autoPauseSeconds 10 -> 0`.
    public var description: String { "\(key) \(from) -> \(to)" }
}

extension MetricsSettings {
    /// The settings that differ from `self` in `new`, in configuration order.
    public func changes(to new: MetricsSettings) -> [MetricsSettingsChange] {
        var out: [MetricsSettingsChange] = []
        func add<T: Equatable>(_ key: String, _ path: KeyPath<MetricsSettings, T>, live: Bool, _ text: (T) -> String) {
            let a = self[keyPath: path], b = new[keyPath: path]
            if a != b { out.append(MetricsSettingsChange(key: key, from: text(a), to: text(b), live: live)) }
        }
        func number(_ v: Double) -> String { JSON.format(v) }
        add("metrics.minFixMode", \.minimumFixMode, live: true) { $0 == .threeD ? "3" : "2" }
        add("metrics.maxHorizontalAccuracyMeters", \.maximumHorizontalAccuracy, live: true, number)
        add("metrics.warmUpFixes", \.warmUpCount, live: true) { String($0) }
        add("metrics.jumpMeters", \.jumpThreshold, live: true, number)
        add("metrics.signalLostSeconds", \.signalLostTimeout, live: true, number)
        add("metrics.autoPauseSeconds", \.autoPauseDelay, live: true) { $0.map(number) ?? "0" }
        add("metrics.autoLapMeters", \.autoLapDistance, live: true) { $0.map(number) ?? "null" }
        add("stationaryRadius", \.stationaryRadius, live: true, number)
        add("autoResumeDistance", \.autoResumeDistance, live: true, number)
        add("units", \.splitUnit, live: false) { $0 == .mile ? "imperial" : "metric" }
        add("weightKg", \.bodyWeightKilograms, live: false) { $0.map(number) ?? "null" }
        add("age", \.age, live: false) { $0.map(String.init) ?? "null" }
        add("sex", \.sex, live: false) { $0?.rawValue ?? "null" }
        add("heartRate", \.heartRateZones, live: false) { $0 == nil ? "no zones" : "zones" }
        add("elevationSmoothingWindow", \.elevationSmoothingWindow, live: false) { String($0) }
        add("elevationHysteresis", \.elevationHysteresis, live: false, number)
        add("speedWindow", \.speedWindow, live: false, number)
        return out
    }

    /// `self` with the settings a workout in progress follows (`MetricsSettingsChange.live`)
    /// taken from `new`; the others stay.
    public func takingLiveSettings(from new: MetricsSettings) -> MetricsSettings {
        var s = self
        s.minimumFixMode = new.minimumFixMode
        s.maximumHorizontalAccuracy = new.maximumHorizontalAccuracy
        s.warmUpCount = new.warmUpCount
        s.jumpThreshold = new.jumpThreshold
        s.signalLostTimeout = new.signalLostTimeout
        s.autoPauseDelay = new.autoPauseDelay
        s.autoLapDistance = new.autoLapDistance
        s.stationaryRadius = new.stationaryRadius
        s.autoResumeDistance = new.autoResumeDistance
        return s
    }
}
