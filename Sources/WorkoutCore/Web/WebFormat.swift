/// Dates, durations and names as the pages write them, in the user's zone and units.
public enum WebFormat {
    public static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The local civil time of an instant.
    public static func civil(_ t: Double, _ zone: ZoneRules) -> CivilTime {
        zone.civilTime(at: ZoneRules.clamp(t))
    }

    /// `Sat 21 Nov 2026`.
    public static func date(_ t: Double, _ zone: ZoneRules) -> String {
        let c = civil(t, zone)
        let wd = CivilTime.weekday(ofDay: CivilTime.daysFromCivil(year: c.year, month: c.month, day: c.day))
        return "\(weekdayNames[wd]) \(c.day) \(monthNames[(c.month - 1) % 12]) \(c.year)"
    }

    /// `21 Nov 2026`.
    public static func shortDate(_ t: Double, _ zone: ZoneRules) -> String {
        let c = civil(t, zone)
        return "\(c.day) \(monthNames[(c.month - 1) % 12]) \(c.year)"
    }

    /// `09:30`.
    public static func clock(_ t: Double, _ zone: ZoneRules) -> String {
        let c = civil(t, zone)
        return ISO8601.pad(c.hour, 2) + ":" + ISO8601.pad(c.minute, 2)
    }

    /// `2026-11-21` (a date input's value).
    public static func isoDate(_ t: Double, _ zone: ZoneRules) -> String {
        let c = civil(t, zone)
        return ISO8601.pad(c.year, 4) + "-" + ISO8601.pad(c.month, 2) + "-" + ISO8601.pad(c.day, 2)
    }

    /// `1:05:09` or `45:09` (no hours when under one).
    public static func duration(_ seconds: Double) -> String {
        let t = Int(max(0, seconds.isFinite ? seconds : 0).rounded())
        let h = t / 3600, m = t / 60 % 60, s = t % 60
        return h > 0 ? "\(h):" + ISO8601.pad(m, 2) + ":" + ISO8601.pad(s, 2) : "\(m):" + ISO8601.pad(s, 2)
    }

    /// A power curve's duration: `5 s`, `90 s`, `20 min`, `1 h`, `2.5 h`.
    /// 2000000 as "2,000,000".
    public static func count(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    public static func durationName(_ seconds: Int) -> String {
        if seconds < 120 && seconds % 60 != 0 || seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 || seconds % 1800 != 0 { return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds) s" }
        return seconds % 3600 == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600).5 h"
    }

    /// `12h 30m` or `45m` (totals).
    public static func hours(_ seconds: Double) -> String {
        let m = Int(max(0, seconds.isFinite ? seconds : 0) / 60)
        return m >= 60 ? "\(m / 60)h " + ISO8601.pad(m % 60, 2) + "m" : "\(m)m"
    }

    /// What a workout is called: its title, else the time of day and the activity
    /// ("Morning Run").
    public static func title(_ s: WorkoutSummary, _ zone: ZoneRules) -> String {
        if let t = s.title { return t }
        let hour = civil(s.startedAt, zone).hour
        let part: String
        switch hour {
        case 5..<12: part = "Morning"
        case 12..<14: part = "Lunch"
        case 14..<18: part = "Afternoon"
        case 18..<22: part = "Evening"
        default: part = "Night"
        }
        return part + " " + s.activity.noun
    }

    /// Pace or speed of the activity, or nil for activities showing neither.
    public static func effort(_ speed: Double, _ activity: ActivityType, _ units: UnitFormatter) -> String? {
        let v = speed > 0 ? speed : nil
        switch activity.pageEffort {
        case .pace: return units.pace(speed: v)
        case .speed: return units.speed(v)
        case .none: return nil
        }
    }
}

extension ActivityType {
    /// How the pages show speed: the activity's own `effortDisplay`, and for an indoor activity
    /// that a wheel or footpod measures, its outdoor kind's (a treadmill run's pace, a trainer
    /// ride's speed); the figures appear only where the workout has a distance.
    public var pageEffort: EffortDisplay {
        switch self {
        case .treadmillRunning, .indoorRowing: return .pace
        case .indoorCycling: return .speed
        case .running, .trailRunning, .walking, .hiking, .cycling, .mountainBiking, .openWaterSwimming, .poolSwimming, .rowing,
             .kayaking, .standUpPaddling, .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating, .sailing,
             .strength, .hiit, .elliptical, .yoga, .climbing, .dance, .transition, .other:
            return effortDisplay
        }
    }
}

extension ActivityType {
    /// The word a default title ends with ("Morning Run", "Evening Ride").
    public var noun: String {
        switch self {
        case .running, .trailRunning, .treadmillRunning: return "Run"
        case .walking: return "Walk"
        case .hiking: return "Hike"
        case .cycling, .mountainBiking, .indoorCycling: return "Ride"
        case .openWaterSwimming, .poolSwimming: return "Swim"
        case .rowing, .indoorRowing: return "Row"
        case .kayaking: return "Paddle"
        case .standUpPaddling: return "SUP"
        case .crossCountrySkiing: return "Nordic Ski"
        case .downhillSkiing: return "Ski"
        case .snowboarding: return "Snowboard"
        case .skating, .inlineSkating: return "Skate"
        case .sailing: return "Sail"
        case .strength: return "Strength Training"
        case .hiit: return "HIIT"
        case .elliptical: return "Elliptical"
        case .yoga: return "Yoga"
        case .climbing: return "Climb"
        case .dance: return "Dance"
        case .other: return "Workout"
        case .transition: return "Transition"
        }
    }
}
