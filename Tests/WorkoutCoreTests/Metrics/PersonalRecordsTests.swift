import Testing
@testable import WorkoutCore

@Suite struct PersonalRecordsTests {
    let old: [ActivityType: [BestEffort]] = [.running: [BestEffort(distanceMeters: 1000, seconds: 240, startTime: 0),
                                                        BestEffort(distanceMeters: 5000, seconds: 1300, startTime: 0)]]

    @Test func reportsOnlyImprovementsAndFirsts() {
        let new = [BestEffort(distanceMeters: 1000, seconds: 235, startTime: 10),
                   BestEffort(distanceMeters: 1609.34, seconds: 400, startTime: 10),
                   BestEffort(distanceMeters: 5000, seconds: 1300, startTime: 10)]   // equal: not a record
        let pbs = PersonalRecords.newBests(activity: .running, previous: old, efforts: new)
        expectEqual(pbs.map(\.effort.distanceMeters), [1000, 1609.34])
        expectEqual(pbs[0].improvementSeconds, 5)
        expectNil(pbs[1].previous)
    }

    @Test func recordsArePerActivity() {
        let e = [BestEffort(distanceMeters: 1000, seconds: 300, startTime: 0)]
        expectEqual(PersonalRecords.newBests(activity: .cycling, previous: old, efforts: e).count, 1)
        #expect(PersonalRecords.newBests(activity: .running, previous: old, efforts: e).isEmpty)
        #expect(PersonalRecords.newBests(activity: .yoga, previous: [:], efforts: e).isEmpty)   // no best efforts for yoga
    }

    @Test func mergeKeepsTheFastest() {
        let merged = PersonalRecords.merged(activity: .running, previous: old,
                                            efforts: [BestEffort(distanceMeters: 1000, seconds: 230, startTime: 5)])
        expectEqual(merged[.running]?.first { $0.distanceMeters == 1000 }?.seconds, 230)
        expectEqual(merged[.running]?.count, 2)
    }
}
