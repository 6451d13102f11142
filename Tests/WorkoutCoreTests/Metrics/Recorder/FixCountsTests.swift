import Testing
@testable import WorkoutCore

@Suite struct FixCountsTests {
    @Test func acceptedAndRejectedByReason() {
        var c = FixCounts()
        c.accept(); c.accept()
        c.reject(.late); c.reject(.tooFast); c.reject(.late)
        expectEqual(c.accepted, 2)
        expectEqual(c.rejected, [.late: 2, .tooFast: 1])
    }
}
