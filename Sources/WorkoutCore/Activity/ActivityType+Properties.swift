/// How an activity's current effort is best shown: runners think in pace, cyclists in speed.
public enum EffortDisplay: String, Sendable, Codable {
    /// minutes per kilometre (or mile)
    case pace
    /// kilometres (or miles) per hour
    case speed
    /// no movement figure: an indoor or stationary activity
    case none
}

/// The sport names TCX v2 allows (`Running`, `Biking`, `Other`).
public enum TCXSport: String, Sendable {
    case running = "Running"
    case biking = "Biking"
    case other = "Other"
}

/// One row of facts per activity; the extension below answers every question from it, so each
/// activity's properties stand together in one place.
struct ActivityProfile {
    let displayName: String
    let supportsGPS: Bool
    let effort: EffortDisplay
    /// Below this speed (m/s) for `autoPauseDelay` seconds the workout auto-pauses; nil = never.
    let autoPauseSpeed: Double?
    /// Faster than this (m/s) between two fixes is not plausible for a person doing this activity.
    let maxPlausibleSpeed: Double
    /// Metabolic equivalent (Compendium of Physical Activities, typical intensity).
    let met: Double
    let tcxSport: TCXSport
    /// Whether records over fixed distances (fastest 1 km, 5 km, ...) make sense.
    let tracksBestEfforts: Bool
}

extension ActivityType {
    var profile: ActivityProfile {
        switch self {
        case .running:
            return ActivityProfile(displayName: "Running", supportsGPS: true, effort: .pace, autoPauseSpeed: 0.5, maxPlausibleSpeed: 12.5, met: 9.8, tcxSport: .running, tracksBestEfforts: true)
        case .trailRunning:
            return ActivityProfile(displayName: "Trail running", supportsGPS: true, effort: .pace, autoPauseSpeed: 0.4, maxPlausibleSpeed: 12.5, met: 9.0, tcxSport: .running, tracksBestEfforts: true)
        case .treadmillRunning:
            return ActivityProfile(displayName: "Treadmill running", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 12.5, met: 9.0, tcxSport: .running, tracksBestEfforts: false)
        case .walking:
            return ActivityProfile(displayName: "Walking", supportsGPS: true, effort: .pace, autoPauseSpeed: 0.3, maxPlausibleSpeed: 4.0, met: 3.5, tcxSport: .other, tracksBestEfforts: true)
        case .hiking:
            return ActivityProfile(displayName: "Hiking", supportsGPS: true, effort: .pace, autoPauseSpeed: 0.25, maxPlausibleSpeed: 4.0, met: 6.0, tcxSport: .other, tracksBestEfforts: true)
        case .cycling:
            return ActivityProfile(displayName: "Cycling", supportsGPS: true, effort: .speed, autoPauseSpeed: 1.0, maxPlausibleSpeed: 27.0, met: 7.5, tcxSport: .biking, tracksBestEfforts: true)
        case .mountainBiking:
            return ActivityProfile(displayName: "Mountain biking", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.7, maxPlausibleSpeed: 25.0, met: 8.5, tcxSport: .biking, tracksBestEfforts: true)
        case .indoorCycling:
            return ActivityProfile(displayName: "Indoor cycling", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 27.0, met: 7.0, tcxSport: .biking, tracksBestEfforts: false)
        case .openWaterSwimming:
            return ActivityProfile(displayName: "Open-water swimming", supportsGPS: true, effort: .pace, autoPauseSpeed: nil, maxPlausibleSpeed: 3.0, met: 8.0, tcxSport: .other, tracksBestEfforts: false)
        case .poolSwimming:
            return ActivityProfile(displayName: "Pool swimming", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 3.0, met: 7.0, tcxSport: .other, tracksBestEfforts: false)
        case .rowing:
            return ActivityProfile(displayName: "Rowing", supportsGPS: true, effort: .pace, autoPauseSpeed: 0.5, maxPlausibleSpeed: 7.0, met: 7.0, tcxSport: .other, tracksBestEfforts: false)
        case .indoorRowing:
            return ActivityProfile(displayName: "Indoor rowing", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 7.0, met: 7.0, tcxSport: .other, tracksBestEfforts: false)
        case .kayaking:
            return ActivityProfile(displayName: "Kayaking", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.3, maxPlausibleSpeed: 6.0, met: 5.0, tcxSport: .other, tracksBestEfforts: false)
        case .standUpPaddling:
            return ActivityProfile(displayName: "Stand-up paddling", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.3, maxPlausibleSpeed: 4.0, met: 6.0, tcxSport: .other, tracksBestEfforts: false)
        case .crossCountrySkiing:
            return ActivityProfile(displayName: "Cross-country skiing", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.5, maxPlausibleSpeed: 17.0, met: 9.0, tcxSport: .other, tracksBestEfforts: false)
        case .downhillSkiing:
            return ActivityProfile(displayName: "Downhill skiing", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.5, maxPlausibleSpeed: 45.0, met: 5.3, tcxSport: .other, tracksBestEfforts: false)
        case .snowboarding:
            return ActivityProfile(displayName: "Snowboarding", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.5, maxPlausibleSpeed: 40.0, met: 5.3, tcxSport: .other, tracksBestEfforts: false)
        case .skating:
            return ActivityProfile(displayName: "Ice skating", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.5, maxPlausibleSpeed: 17.0, met: 7.0, tcxSport: .other, tracksBestEfforts: false)
        case .inlineSkating:
            return ActivityProfile(displayName: "Inline skating", supportsGPS: true, effort: .speed, autoPauseSpeed: 0.7, maxPlausibleSpeed: 17.0, met: 7.5, tcxSport: .other, tracksBestEfforts: false)
        case .sailing:
            return ActivityProfile(displayName: "Sailing", supportsGPS: true, effort: .speed, autoPauseSpeed: nil, maxPlausibleSpeed: 20.0, met: 3.0, tcxSport: .other, tracksBestEfforts: false)
        case .strength:
            return ActivityProfile(displayName: "Strength training", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 3.0, met: 5.0, tcxSport: .other, tracksBestEfforts: false)
        case .hiit:
            return ActivityProfile(displayName: "HIIT", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 8.0, met: 8.0, tcxSport: .other, tracksBestEfforts: false)
        case .elliptical:
            return ActivityProfile(displayName: "Elliptical", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 8.0, met: 5.0, tcxSport: .other, tracksBestEfforts: false)
        case .yoga:
            return ActivityProfile(displayName: "Yoga", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 2.0, met: 2.5, tcxSport: .other, tracksBestEfforts: false)
        case .climbing:
            return ActivityProfile(displayName: "Climbing", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 3.0, met: 8.0, tcxSport: .other, tracksBestEfforts: false)
        case .dance:
            return ActivityProfile(displayName: "Dance", supportsGPS: false, effort: .none, autoPauseSpeed: nil, maxPlausibleSpeed: 5.0, met: 5.0, tcxSport: .other, tracksBestEfforts: false)
        case .transition:
            return ActivityProfile(displayName: "Transition", supportsGPS: true, effort: .pace, autoPauseSpeed: nil, maxPlausibleSpeed: 12.5, met: 4.0, tcxSport: .other, tracksBestEfforts: false)
        case .other:
            return ActivityProfile(displayName: "Other", supportsGPS: true, effort: .speed, autoPauseSpeed: nil, maxPlausibleSpeed: 45.0, met: 4.0, tcxSport: .other, tracksBestEfforts: false)
        }
    }

    /// Whether a workout of this kind opens a GPS source while it is active.
    public var supportsGPS: Bool { profile.supportsGPS }
    /// The name shown to people ("Trail running").
    public var displayName: String { profile.displayName }
    /// Pace (min/km), speed (km/h) or nothing.
    public var effortDisplay: EffortDisplay { profile.effort }
    /// Speed in m/s below which movement counts as stopped for auto-pause; nil = no auto-pause.
    public var autoPauseSpeed: Double? { profile.autoPauseSpeed }
    /// Highest plausible speed in m/s; a fix implying more is rejected as an outlier.
    public var maxPlausibleSpeed: Double { profile.maxPlausibleSpeed }
    /// MET value used for calories: kcal = MET x weight(kg) x moving hours.
    public var met: Double { profile.met }
    /// The TCX v2 sport this activity is exported as.
    public var tcxSport: TCXSport { profile.tcxSport }
    /// Whether best efforts over standard distances are searched for.
    public var tracksBestEfforts: Bool { profile.tracksBestEfforts }
    /// The `<type>` written into GPX tracks (the raw value).
    public var gpxType: String { rawValue }

    /// Parses a name a user typed: the raw value, or the same with '-' or ' ' for '_', any case.
    public init?(userInput: String) {
        let normalized = String(userInput.lowercased().map { ($0 == "-" || $0 == " ") ? "_" : $0 })
        guard let value = ActivityType(rawValue: normalized) else { return nil }
        self = value
    }

    /// Best guess of an activity from a name found in an imported file (GPX `<type>`, TCX Sport).
    public init?(importedName: String) {
        let n = importedName.lowercased()
        if let exact = ActivityType(userInput: n) { self = exact; return }
        if n.contains("run") { self = .running; return }
        if n.contains("bik") || n.contains("cycl") || n.contains("ride") { self = .cycling; return }
        if n.contains("walk") { self = .walking; return }
        if n.contains("hik") { self = .hiking; return }
        if n.contains("swim") { self = .openWaterSwimming; return }
        return nil
    }
}
