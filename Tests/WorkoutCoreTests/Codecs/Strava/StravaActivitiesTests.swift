import Testing
@testable import WorkoutCore

/// Strava's `activities.csv`: the columns found by name, quoting, and the type mapping.
struct StravaActivitiesTests {
    /// The head of a real export's CSV (columns as Strava writes them, duplicated names included).
    static let csv = #"""
    \#u{FEFF}Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Max Heart Rate,Relative Effort,Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance\#r
    1234567890,"Mar 3, 2021, 6:12:41 AM",Morning Run,Run,,1834,5.21,,,false,,,activities/1234567890.fit.gz,,,1834.0,1790.0,5210.5\#r
    1234567891,"Mar 4, 2021, 5:00:00 PM","Ride, with ""friends""",Ride,"Line one
    line two",3600,25.0,,,false,,,activities/1234567891.gpx.gz,,,3600.0,3400.0,25000.0\#r
    1234567892,"Mar 5, 2021, 7:00:00 AM",Yoga,Yoga,,1800,0,,,false,,,,,,1800.0,1800.0,0\#r
    1234567893,"Mar 6, 2021, 9:00:00 AM",Lunch Hike,Hike,,7200,8.1,,,false,,,./activities/1234567893.tcx.gz,,,7200,7000,8100\#r
    1234567894,"Mar 7, 2021, 9:00:00 AM",Zwift,Virtual Ride,,3600,30,,,false,,,activities/1234567894.fit.gz,,,3600,3600,30000\#r

    """#

    @Test func readsTitlesAndTypesByFile() throws {
        let s = try StravaActivities.parse(Array(StravaActivitiesTests.csv.utf8))
        expectEqual(s.byFile.count, 4, "the manual entry without a file is left out")
        expectEqual(s.entry(forRelativePath: "activities/1234567890.fit.gz"), .init(title: "Morning Run", type: "Run", activity: .running))
        expectEqual(s.entry(forRelativePath: "./activities/1234567891.gpx.gz")?.title, #"Ride, with "friends""#, "quotes, commas, a multi-line field before it")
        expectEqual(s.entry(forRelativePath: "activities/1234567891.gpx.gz")?.activity, .cycling)
        expectEqual(s.entry(forRelativePath: "activities/1234567893.tcx.gz")?.activity, .hiking, "./ in the CSV")
        expectEqual(s.entry(forRelativePath: "activities/1234567894.fit.gz")?.activity, .indoorCycling)
        expectNil(s.entry(forRelativePath: "activities/nothing.fit"))
    }

    /// Regression (issue 25 item 12): only the title was taken; a person's description, private
    /// note, gear and perceived exertion were dropped.
    @Test func readsNotesGearAndEffort() throws {
        let csv = "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Activity Private Note,Activity Gear,Filename,Perceived Exertion\n"
            + "1,\"Mar 3, 2021\",Tempo,Run,\"Felt strong, \"\"negative\"\" split\",knee ok,Pegasus 40,activities/1.fit.gz,7.0\n"
            + "2,\"Mar 4, 2021\",Spin,Ride,,,,activities/2.gpx,\n"
            + "3,\"Mar 5, 2021\",Odd,Run,,private only, ,activities/3.gpx,11\n"
        let s = try StravaActivities.parse(Array(csv.utf8))
        let tempo = try #require(s.entry(forRelativePath: "activities/1.fit.gz"))
        expectEqual(tempo.notes, "Felt strong, \"negative\" split\n\nknee ok", "description, then the private note")
        #expect(tempo.gear == "Pegasus 40" && tempo.effort == 7)
        expectEqual(s.entry(forRelativePath: "activities/2.gpx"), .init(title: "Spin", type: "Ride", activity: .cycling), "empty columns: nil")
        let odd = try #require(s.entry(forRelativePath: "activities/3.gpx"))
        #expect(odd.notes == "private only" && odd.gear == nil && odd.effort == nil, "blank gear, an exertion out of 1-10")
        // An export without the optional columns still reads (readsTitlesAndTypesByFile's has no Perceived Exertion).
        let old = try StravaActivities.parse(Array(StravaActivitiesTests.csv.utf8))
        expectEqual(old.entry(forRelativePath: "activities/1234567891.gpx.gz")?.notes, "Line one\nline two")
        expectNil(old.entry(forRelativePath: "activities/1234567890.fit.gz")?.effort)
    }

    @Test func typeMapping() {
        expectEqual(StravaActivities.activity(forStravaType: "Trail Run"), .trailRunning)
        expectEqual(StravaActivities.activity(forStravaType: "TrailRun"), .trailRunning)
        expectEqual(StravaActivities.activity(forStravaType: "Mountain Bike Ride"), .mountainBiking)
        expectEqual(StravaActivities.activity(forStravaType: "E-Bike Ride"), .cycling)
        expectEqual(StravaActivities.activity(forStravaType: "Swim"), .openWaterSwimming)
        expectEqual(StravaActivities.activity(forStravaType: "Weight Training"), .strength)
        expectEqual(StravaActivities.activity(forStravaType: "Alpine Ski"), .downhillSkiing)
        expectNil(StravaActivities.activity(forStravaType: "Golf"))
        expectNil(StravaActivities.activity(forStravaType: ""))
        for a in ActivityType.allCases { _ = StravaActivities.activity(forStravaType: a.rawValue) }  // total
    }

    @Test func refusesWhatItCannotUse() {
        #expect(throws: StravaActivities.Failure.missingColumn("Filename")) { try StravaActivities.parse(Array("Activity ID,Activity Name,Activity Type\n1,a,Run\n".utf8)) }
        #expect(throws: StravaActivities.Failure.unterminatedQuote(line: 2)) {
            try StravaActivities.parse(Array("Activity Name,Activity Type,Filename\n\"open,Run,a.fit\n".utf8))
        }
        #expect(throws: StravaActivities.Failure.missingColumn("Filename")) { try StravaActivities.parse([]) }
    }

    @Test func csvRows() throws {
        try expectEqual(StravaActivities.csvRows(Array("a,b\n\"x\"\"y\",\n,\n".utf8)), [["a", "b"], ["x\"y", ""], ["", ""]])
        try expectEqual(StravaActivities.csvRows(Array("a,b".utf8)), [["a", "b"]], "no final newline")
        try expectEqual(StravaActivities.csvRows(Array("\n\na\r\n".utf8)), [["a"]], "blank lines")
    }
}
