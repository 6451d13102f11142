import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// A reply answered off the loop, through its phases: attached, finished once, abandoned.
@Suite struct PendingReplyTests {
    final class Sink {
        var lines: [String] = []
        var completions = 0
    }

    static func attached() -> (PendingReply, Sink) {
        let p = PendingReply(), sink = Sink()
        p.attach(deliver: { sink.lines.append(String(decoding: $0, as: UTF8.self)) }, completed: { sink.completions += 1 })
        return (p, sink)
    }

    @Test func eventsThenOneReplyThenNothing() {
        let (p, sink) = Self.attached()
        p.send(event: Array(#"{"event":"import"}"#.utf8))
        p.finish(.encodedSuccess(Array(#"{"ok":true}"#.utf8)))
        p.finish(.encodedSuccess(Array(#"{"ok":true,"again":1}"#.utf8)))
        p.send(event: Array(#"{"event":"late"}"#.utf8))
        #expect(sink.lines == [#"{"event":"import"}"#, #"{"ok":true}"#])
        #expect(sink.completions == 1)
    }

    @Test func anAbandonedReplyDeliversNothingAndCancels() {
        let (p, sink) = Self.attached()
        p.abandon()
        #expect(p.cancel.isSet)
        p.send(event: Array("x".utf8))
        p.finish(.value(["ok": true]))
        #expect(sink.lines.isEmpty && sink.completions == 0)
    }
}
