import Glibc
import Testing
@testable import WorkoutDaemon

@Suite struct FeedReaderTests {
    @Test func readsEverythingInOrderAndReportsDrained() {
        let s = SocketPair()
        var reader = FeedReader(clock: SystemClock())
        let sent = (0..<5000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        s.write(sent)
        var got: [UInt8] = [], chunks = 0
        let turn = reader.read(s.reader) { got += $0; chunks += 1 }
        #expect(turn.outcome == .drained)
        #expect(turn.bytes == 5000)
        #expect(got == sent)
        #expect(chunks == 3)  // 2048 + 2048 + 904
    }

    @Test func anEmptySocketIsDrainedWithNothingRead() {
        let s = SocketPair()
        var reader = FeedReader(clock: SystemClock())
        let turn = reader.read(s.reader) { _ in Issue.record("no input expected") }
        #expect(turn.outcome == .drained)
        #expect(turn.bytes == 0)
    }

    @Test func aSpentBudgetLeavesTheRestForTheNextTurn() {
        let s = SocketPair()
        var reader = FeedReader(clock: SystemClock())
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
        var reader = FeedReader(clock: SystemClock())
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
        var reader = FeedReader(clock: SystemClock())
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
