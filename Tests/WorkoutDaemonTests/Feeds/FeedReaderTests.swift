import Glibc
import Testing
@testable import WorkoutDaemon

@Suite struct FeedReaderTests {
    @Test func readsEverythingInOrderAndReportsDrained() {
        let s = SocketPair()
        var reader = FeedReader(clock: ManualClock())
        let sent = (0..<5000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        s.write(sent)
        var got: [UInt8] = [], chunks = 0
        let turn = reader.read(s.reader) { got += $0; chunks += 1 }
        #expect(turn.outcome == .drained)
        #expect(turn.bytes == 5000)
        #expect(got == sent)
        #expect(chunks == 3)  // 2048 + 2048 + 904
    }

    /// The budget is the loop's time: once it has passed during a turn, the turn ends with the
    /// rest left in the socket. (A ManualClock: on the system clock a loaded machine spent the
    /// budget between two reads and the test above failed, 2 chunks of 3.)
    @Test func timePassingSpendsTheBudget() {
        let s = SocketPair()
        let clock = ManualClock()
        var reader = FeedReader(clock: clock)
        s.write([UInt8](repeating: 65, count: 5000))
        var chunks = 0
        let turn = reader.read(s.reader) { _ in chunks += 1; clock.advance(by: FeedBudget.seconds) }
        #expect(turn.outcome == .budgetSpent)
        #expect(turn.bytes == FeedBudget.readBytes)
        #expect(chunks == 1)
        #expect(reader.read(s.reader) { _ in }.bytes == 5000 - FeedBudget.readBytes)
    }

    @Test func anEmptySocketIsDrainedWithNothingRead() {
        let s = SocketPair()
        var reader = FeedReader(clock: ManualClock())
        let turn = reader.read(s.reader) { _ in Issue.record("no input expected") }
        #expect(turn.outcome == .drained)
        #expect(turn.bytes == 0)
    }

    @Test func aSpentBudgetLeavesTheRestForTheNextTurn() {
        let s = SocketPair()
        var reader = FeedReader(clock: ManualClock())
        s.write([UInt8](repeating: 65, count: 10_000))
        let first = reader.read(s.reader, budget: 0) { _ in }
        #expect(first.outcome == .budgetSpent)
        #expect(first.bytes == FeedBudget.readBytes)
        let rest = reader.read(s.reader) { _ in }
        #expect(rest.outcome == .drained)
        #expect(rest.bytes == 10_000 - FeedBudget.readBytes)
    }

    @Test func theEndOfTheStreamComesAfterItsLastBytes() {
        let s = SocketPair()
        var reader = FeedReader(clock: ManualClock())
        s.write("last line\n")
        s.closeWriter()
        var got = ""
        let first = reader.read(s.reader) { got += String(decoding: $0, as: UTF8.self) }
        #expect(got == "last line\n")
        #expect(first.outcome == .drained)
        #expect(reader.read(s.reader) { _ in }.outcome == .ended(errno: 0))
    }

    /// A consumer that spent the budget inside a chunk ends the turn there: nothing more is read.
    @Test func aConsumerCanEndTheTurnAfterAChunk() {
        let s = SocketPair()
        var reader = FeedReader(clock: ManualClock())
        s.write([UInt8](repeating: 65, count: 10_000))
        var chunks = 0
        let first = reader.readChunks(s.reader, budget: 60) { _ in chunks += 1; return false }
        #expect(first.outcome == .budgetSpent)
        #expect(first.bytes == FeedBudget.readBytes)
        #expect(chunks == 1)
        let rest = reader.readChunks(s.reader) { _ in true }
        #expect(rest.outcome == .drained)
        #expect(rest.bytes == 10_000 - FeedBudget.readBytes)
    }
}
