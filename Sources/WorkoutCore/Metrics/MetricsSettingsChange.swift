/// One metrics setting that differs between two `MetricsSettings` (a `reload`), named by its
/// configuration key, with both values in words, and whether it reaches a workout in progress.
public struct MetricsSettingsChange: Sendable, Equatable {
    /// The configuration key (`metrics.autoPauseSeconds`, `units`, `weightKg`, ...).
    public var key: String
    public var from: String
    public var to: String
    /// When a workout in progress follows it.
    public var applies: Applies

    /// When a changed setting reaches a workout in progress.
    public enum Applies: Sendable, Equatable {
        /// From the moment of the reload (the fix filter, auto-pause, signal loss and auto-lap rules).
        case now
        /// From the next workout: the one in progress keeps the value it began with (split
        /// unit, body and heart-rate figures: a workout's splits and calories are never measured
        /// two ways).
        case nextWorkout
    }

    public init(key: String, from: String, to: String, applies: Applies) {
        self.key = key; self.from = from; self.to = to; self.applies = applies
    }

    /// Whether the workout in progress follows it from the reload on.
    public var appliesNow: Bool {
        switch applies {
        case .now: return true
        case .nextWorkout: return false
        }
    }

    /// `metrics.autoPauseSeconds 10 -> 0`.
    public var description: String { "\(key) \(from) -> \(to)" }
}

extension MetricsSettings {
    /// The settings that differ from `self` in `new`, in configuration order.
    public func changes(to new: MetricsSettings) -> [MetricsSettingsChange] {
        var out: [MetricsSettingsChange] = []
        func add<T: Equatable>(_ key: String, _ path: KeyPath<MetricsSettings, T>, applies: MetricsSettingsChange.Applies, _ text: (T) -> String) {
            let a = self[keyPath: path], b = new[keyPath: path]
            if a != b { out.append(MetricsSettingsChange(key: key, from: text(a), to: text(b), applies: applies)) }
        }
        func number(_ v: Double) -> String { JSON.format(v) }
        add("metrics.minFixMode", \.minimumFixMode, applies: .now) { $0 == .threeD ? "3" : "2" }
        add("metrics.maxHorizontalAccuracyMeters", \.maximumHorizontalAccuracy, applies: .now, number)
        add("metrics.warmUpFixes", \.warmUpCount, applies: .now) { String($0) }
        add("metrics.jumpMeters", \.jumpThreshold, applies: .now, number)
        add("metrics.signalLostSeconds", \.signalLostTimeout, applies: .now, number)
        add("metrics.autoPauseSeconds", \.autoPauseDelay, applies: .now) { $0.map(number) ?? "0" }
        add("metrics.autoLapMeters", \.autoLapDistance, applies: .now) { $0.map(number) ?? "null" }
        add("stationaryRadius", \.stationaryRadius, applies: .now, number)
        add("autoResumeDistance", \.autoResumeDistance, applies: .now, number)
        add("units", \.splitUnit, applies: .nextWorkout) { $0 == .mile ? "imperial" : "metric" }
        add("weightKg", \.bodyWeightKilograms, applies: .nextWorkout) { $0.map(number) ?? "null" }
        add("age", \.age, applies: .nextWorkout) { $0.map(String.init) ?? "null" }
        add("sex", \.sex, applies: .nextWorkout) { $0?.rawValue ?? "null" }
        add("heartRate", \.heartRateZones, applies: .nextWorkout) { $0 == nil ? "no zones" : "zones" }
        add("elevationSmoothingWindow", \.elevationSmoothingWindow, applies: .nextWorkout) { String($0) }
        add("elevationHysteresis", \.elevationHysteresis, applies: .nextWorkout, number)
        add("speedWindow", \.speedWindow, applies: .nextWorkout, number)
        return out
    }

    /// `self` with the settings a workout in progress follows (`MetricsSettingsChange.applies`)
    /// taken from `new`; the others stay.
    public func takingLiveSettings(from new: MetricsSettings) -> MetricsSettings { taking(new.live) }
}

/// The metrics rules a workout in progress follows live (`MetricsSettingsChange.applies`): what a
/// reload changes mid-workout, and what the journal records of it (`JournalRecord.settings`).
public struct LiveMetricsSettings: Sendable, Equatable {
    public var minimumFixMode: FixMode
    public var maximumHorizontalAccuracy: Double
    public var warmUpCount: Int
    public var jumpThreshold: Double
    public var signalLostTimeout: Double
    public var autoPauseDelay: Double?
    public var autoLapDistance: Double?
    public var stationaryRadius: Double
    public var autoResumeDistance: Double
}

extension MetricsSettings {
    /// The rules a workout in progress follows live.
    public var live: LiveMetricsSettings {
        LiveMetricsSettings(minimumFixMode: minimumFixMode, maximumHorizontalAccuracy: maximumHorizontalAccuracy, warmUpCount: warmUpCount,
                            jumpThreshold: jumpThreshold, signalLostTimeout: signalLostTimeout, autoPauseDelay: autoPauseDelay,
                            autoLapDistance: autoLapDistance, stationaryRadius: stationaryRadius, autoResumeDistance: autoResumeDistance)
    }

    /// `self` with these live rules; the others stay.
    public func taking(_ l: LiveMetricsSettings) -> MetricsSettings {
        var s = self
        s.minimumFixMode = l.minimumFixMode
        s.maximumHorizontalAccuracy = l.maximumHorizontalAccuracy
        s.warmUpCount = l.warmUpCount
        s.jumpThreshold = l.jumpThreshold
        s.signalLostTimeout = l.signalLostTimeout
        s.autoPauseDelay = l.autoPauseDelay
        s.autoLapDistance = l.autoLapDistance
        s.stationaryRadius = l.stationaryRadius
        s.autoResumeDistance = l.autoResumeDistance
        return s
    }
}

extension LiveMetricsSettings {
    /// The journal's form: `{"minFixMode":2,"maxAccuracy":50,...}` (null: off).
    public func json() -> JSON {
        ["minFixMode": .int(minimumFixMode == .threeD ? 3 : 2), "maxAccuracy": .number(maximumHorizontalAccuracy), "warmUp": .int(warmUpCount),
         "jump": .number(jumpThreshold), "signalLost": .number(signalLostTimeout), "autoPause": .number(autoPauseDelay),
         "autoLap": .number(autoLapDistance), "stationary": .number(stationaryRadius), "autoResume": .number(autoResumeDistance)]
    }

    /// nil when a key is missing or of the wrong type.
    public init?(json j: JSON) {
        guard let m = j["minFixMode"]?.intValue, let acc = j["maxAccuracy"]?.doubleValue, let warm = j["warmUp"]?.intValue,
              let jump = j["jump"]?.doubleValue, let lost = j["signalLost"]?.doubleValue, let pause = j["autoPause"], let lap = j["autoLap"],
              let stationary = j["stationary"]?.doubleValue, let resume = j["autoResume"]?.doubleValue else { return nil }
        guard pause.isNull || pause.doubleValue != nil, lap.isNull || lap.doubleValue != nil else { return nil }
        self.init(minimumFixMode: m >= 3 ? .threeD : .twoD, maximumHorizontalAccuracy: acc, warmUpCount: warm, jumpThreshold: jump,
                  signalLostTimeout: lost, autoPauseDelay: pause.doubleValue, autoLapDistance: lap.doubleValue,
                  stationaryRadius: stationary, autoResumeDistance: resume)
    }
}
