import Testing
@testable import WorkoutCore

@Suite struct ActivityTypeTests {
    @Test func thereAreAtLeastTwentyWithSaneProperties() {
        expectGreaterOrEqual(ActivityType.allCases.count, 20)
        for a in ActivityType.allCases {
            #expect(!a.displayName.isEmpty)
            #expect(a.maxPlausibleSpeed > 0 && a.maxPlausibleSpeed < 60)
            #expect(a.met >= 1 && a.met <= 20)
            if let s = a.autoPauseSpeed { #expect(s > 0 && s < a.maxPlausibleSpeed) }
            // Indoor activities show no movement figure and never open GPS.
            if !a.supportsGPS { expectEqual(a.effortDisplay, .none) }
            expectEqual(ActivityType(userInput: a.rawValue), a)
        }
    }

    @Test func userInputIsForgiving() {
        expectEqual(ActivityType(userInput: "Trail-Running"), .trailRunning)
        expectEqual(ActivityType(userInput: "mountain biking"), .mountainBiking)
        expectNil(ActivityType(userInput: "flying"))
        expectEqual(ActivityType(importedName: "Biking"), .cycling)
    }
}
