extension MetricsSettings {
    /// The recorder's settings from the configuration (thresholds per activity still come from
    /// the activity type inside the recorder).
    public init(config: Config) {
        self.init()
        apply(config.metrics)
        bodyWeightKilograms = config.weightKg
        splitUnit = config.units == .imperial ? .mile : .kilometer
        heartRateZones = config.heartRateZones
        ftpWatts = config.ftpWatts
        trainingThresholds = config.trainingThresholds
        age = config.age
        sex = config.sex
    }

    /// The `metrics` rules of `m` in place of these (`recompute --set`); the body, units and
    /// thresholds kept.
    public mutating func apply(_ m: MetricsConfig) {
        minimumFixMode = m.minFixMode >= 3 ? .threeD : .twoD
        maximumHorizontalAccuracy = m.maxHorizontalAccuracyMeters
        warmUpCount = m.warmUpFixes
        jumpThreshold = m.jumpMeters
        signalLostTimeout = m.signalLostSeconds
        autoPauseDelay = m.autoPauseSeconds > 0 ? m.autoPauseSeconds : nil
        autoLapDistance = m.autoLapMeters
    }
}

extension Config {
    /// `thresholdHeartRate` and `thresholdPaceSecondsPerKm`.
    public var trainingThresholds: TrainingThresholds {
        TrainingThresholds(heartRate: thresholdHeartRate, paceSecondsPerKm: thresholdPaceSecondsPerKm)
    }
}

extension MetricsConfig {
    /// Reads the keys of a `metrics` object onto these values and refuses any other key. The one
    /// decoder of metrics settings: the configuration file and `recompute --set` both use it.
    /// An explicit `null` for `autoLapMeters` turns automatic laps off.
    mutating func decode(_ m: inout KeyReader) throws(ConfigError) {
        minFixMode = try m.int("minFixMode", in: 2...3) ?? minFixMode
        maxHorizontalAccuracyMeters = try m.number("maxHorizontalAccuracyMeters", in: 1...10_000) ?? maxHorizontalAccuracyMeters
        warmUpFixes = try m.int("warmUpFixes", in: 0...60) ?? warmUpFixes
        jumpMeters = try m.number("jumpMeters", in: 10...100_000) ?? jumpMeters
        signalLostSeconds = try m.number("signalLostSeconds", in: 2...3600) ?? signalLostSeconds
        autoPauseSeconds = try m.number("autoPauseSeconds", in: 0...3600) ?? autoPauseSeconds
        if m.object["autoLapMeters"]?.isNull == true {
            _ = m.raw("autoLapMeters")
            autoLapMeters = nil
        } else {
            autoLapMeters = try m.number("autoLapMeters", in: 100...1_000_000) ?? autoLapMeters
        }
        try m.finish()
    }

    /// These settings with `overrides` applied: `("metrics.autoPauseSeconds", 0)`, ... Keys and
    /// values are checked by the configuration's own decoder, so every metrics key the file
    /// accepts is accepted here with the same ranges, and an error names the key.
    public func overridden(by overrides: [MetricsOverride]) throws(ConfigError) -> MetricsConfig {
        var object = JSONObject()
        for o in overrides {
            guard o.key.hasPrefix("metrics."), o.key.count > "metrics.".count else {
                throw ConfigError(key: o.key, problem: "only metrics settings can be changed here (metrics.KEY=VALUE; see docs/config.md)")
            }
            object[String(o.key.dropFirst("metrics.".count))] = o.value
        }
        var reader = try KeyReader(.object(object), path: "metrics")
        var out = self
        try out.decode(&reader)
        return out
    }
}

/// One `--set metrics.KEY=VALUE` of `recompute`: the full key as in the configuration
/// (`metrics.autoPauseSeconds`) and the value as JSON.
public struct MetricsOverride: Sendable, Equatable {
    public var key: String
    public var value: JSON
    public init(key: String, value: JSON) { self.key = key; self.value = value }

    /// Parses `KEY=VALUE` as typed on the command line: VALUE is JSON when it parses as JSON
    /// (`0`, `12.5`, `null`, `true`), else a string. nil when there is no `=` or no key.
    public init?(argument: String) {
        guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex else { return nil }
        key = String(argument[..<eq])
        let text = String(argument[argument.index(after: eq)...])
        if let v = try? JSON.parse(text) { value = v } else { value = .string(text) }
    }
}
