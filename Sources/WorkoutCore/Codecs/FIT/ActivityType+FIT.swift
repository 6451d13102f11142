/// The FIT profile's `sport` and `sub_sport` of each activity, both ways.
extension ActivityType {
    /// The FIT `sport` and `sub_sport` this activity is exported as.
    public var fitSport: (sport: UInt8, subSport: UInt8) {
        switch self {
        case .running: return (1, 0)
        case .trailRunning: return (1, 3)
        case .treadmillRunning: return (1, 1)
        case .walking: return (11, 0)
        case .hiking: return (17, 0)
        case .cycling: return (2, 0)
        case .mountainBiking: return (2, 8)
        case .indoorCycling: return (2, 6)
        case .openWaterSwimming: return (5, 18)
        case .poolSwimming: return (5, 17)
        case .rowing: return (15, 0)
        case .indoorRowing: return (15, 14)
        case .kayaking: return (41, 0)
        case .standUpPaddling: return (37, 0)
        case .crossCountrySkiing: return (12, 0)
        case .downhillSkiing: return (13, 0)
        case .snowboarding: return (14, 0)
        case .skating: return (33, 0)
        case .inlineSkating: return (30, 0)
        case .sailing: return (32, 0)
        case .strength: return (10, 20)
        case .hiit: return (62, 0)
        case .elliptical: return (4, 15)
        case .yoga: return (10, 43)
        case .climbing: return (31, 0)
        case .dance: return (83, 0)
        case .transition: return (3, 0)
        case .other: return (0, 0)
        }
    }

    /// The activity of a FIT `sport`/`sub_sport` pair; nil for generic, multisport and sports
    /// workoutd has no activity for.
    public init?(fitSport sport: UInt8, subSport: UInt8?) {
        let sub = subSport ?? 0
        switch sport {
        case 1: self = sub == 3 ? .trailRunning : sub == 1 || sub == 45 ? .treadmillRunning : .running
        case 2: self = sub == 8 || sub == 9 || sub == 47 ? .mountainBiking : sub == 5 || sub == 6 || sub == 58 ? .indoorCycling : .cycling
        case 21: self = sub == 47 ? .mountainBiking : .cycling
        case 4:
            switch sub {
            case 14: self = .indoorRowing
            case 15: self = .elliptical
            case 1, 45: self = .treadmillRunning
            case 5, 6: self = .indoorCycling
            case 20: self = .strength
            case 43: self = .yoga
            default: return nil
            }
        case 5: self = sub == 17 ? .poolSwimming : .openWaterSwimming
        case 10: self = sub == 43 ? .yoga : sub == 20 ? .strength : .hiit
        case 11: self = .walking
        case 12: self = .crossCountrySkiing
        case 13: self = .downhillSkiing
        case 14: self = .snowboarding
        case 15: self = sub == 14 ? .indoorRowing : .rowing
        case 16, 17, 35: self = .hiking
        case 19, 41, 42, 88: self = .kayaking
        case 30: self = .inlineSkating
        case 31: self = .climbing
        case 32: self = .sailing
        case 33: self = .skating
        case 37: self = .standUpPaddling
        case 62: self = .hiit
        case 83: self = .dance
        case 3: self = .transition
        default: return nil
        }
    }
}
