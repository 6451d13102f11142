import Testing
@testable import WorkoutCore

@Suite struct RecorderTimelineTests {
    @Test func aUserEventMakesEverythingStampedAtOrBeforeItLate() {
        var t = RecorderTimeline()
        #expect(t.admits(-1e9))
        t.userEvent(at: 100)
        t.userEvent(at: 90)  // never backwards
        #expect(!t.admits(100))
        #expect(t.admits(100.5))
    }

    @Test func userTimesAreClampedToTheFloorAndToAFixSlightlyAhead() {
        var t = RecorderTimeline()
        expectEqual(t.clamp(50, floor: 60), 60)
        expectEqual(t.clamp(.nan, floor: 60), 60)
        t.fix(at: 105)
        expectEqual(t.clamp(100, floor: 60), 105, "the receiver's clock 5 s ahead")
        expectEqual(t.clamp(90, floor: 60), 90, "15 s ahead is not believed")
        expectEqual(t.clamp(110, floor: 60), 110)
    }

    @Test func segmentsAfterTheFirstAreOnTheTimeline() {
        var t = RecorderTimeline()
        expectEqual(t.pointSegment, 0)
        var out: [RecorderEvent] = []
        expectEqual(t.startSegment(at: 1, into: &out), 0)
        expectEqual(t.startSegment(at: 9, into: &out), 1)
        expectEqual(t.events.map(\.kind), [.segment])
        expectEqual(t.events.first?.text, "segment 1")
        expectEqual(out.count, 3)  // segmentStarted(0), the event, segmentStarted(1)
        t.append(WorkoutEvent(kind: .marker, time: 10))
        expectEqual(t.events.count, 2)
        expectEqual(out.count, 3, "appended, not reported")
    }
}
