import Foundation
import Testing
import WorkoutCore
@testable import WorkoutClient

/// Issue 45 item 6: a title or notes from a Strava export, a Bluetooth device's name, a file's
/// name reached `list`, `show`, `status` and `watch` raw: screen clears, window titles, blinking
/// text. Every command now prints them through `TerminalText.visible`. The replies come from a
/// daemon stand-in on a real socket; what the terminal gets must hold no control character but
/// the newlines the client writes itself.
@Suite struct TerminalTextTests {
    /// Clear screen, set the window title (OSC ... BEL), blink, a C1 CSI, a backwards override.
    static let hostile = "Ride\u{1B}[2J\u{1B}]0;owned\u{7}\u{1B}[5mblink\u{9B}31m\u{202E}gnp.exe\n2nd line"
    static let shown = #"Ride\e[2J\e]0;owned\u{7}\e[5mblink\u{9B}31m\u{202E}gnp.exe\n2nd line"#

    @Test func controlCharactersAreMadeVisible() {
        #expect(TerminalText.visible(Self.hostile) == Self.shown)
        #expect(TerminalText.visible("Morning run – 10 km ✓") == "Morning run – 10 km ✓")
        #expect(TerminalText.visible("a\tb\rc\u{0}d\u{7F}") == #"a\tb\rc\u{0}d\u{7F}"#)
        let j: JSON = ["title": .string(Self.hostile), "laps": [["name": "\u{1B}c"]]]
        #expect(TerminalText.visible(j) == ["title": .string(Self.shown), "laps": [["name": #"\ec"#]]])
    }

    /// What a terminal must not get: any C0 control but the newline, DEL, C1, bidi overrides.
    static func raw(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalText.isControl($0) }
    }

    func run(_ args: [String], replies: [String], terminal: Bool = false) -> Capture {
        let d = FakeDaemon()
        d.start(.reply(replies))
        let cap = Capture(isTerminal: terminal)
        var c = Client(console: cap.console, paths: SocketPaths(directory: d.dir), renderer: Renderer(clock: .utc))
        c.requestTimeout = 2
        c.catchesSignals = false
        _ = c.run(arguments: args, cwd: "/")
        d.waitUntilFinished()
        return cap
    }

    static func json(_ j: JSON) -> String { j.serialized() }

    static var workout: JSON {
        var w = RendererTests.runSummary.objectValue!
        w["title"] = .string(hostile)
        w["notes"] = .string(hostile)
        w["gear"] = .string(hostile)
        return .object(w)
    }

    @Test func listShowStatusAndErrorsPrintNoControlCharacters() {
        let list = run(["list"], replies: [Self.json(["ok": true, "workouts": [Self.workout]])])
        #expect(Self.raw(list.stdout).isEmpty, "\(list.stdout.debugDescription)")
        #expect(list.stdout.contains(#"Ride\e[2J"#), "\(list.stdout)")

        let show = run(["show", "20261121T093000Z-3f9a"], replies: [Self.json(["ok": true, "workout": Self.workout, "events": []])])
        #expect(Self.raw(show.stdout).isEmpty, "\(show.stdout.debugDescription)")
        #expect(show.stdout.contains(#"\e]0;owned\u{7}"#), "\(show.stdout)")

        let status: JSON = ["ok": true, "state": "active", "workout": Self.workout, "gps": nil,
                            "sensors": [["kind": "bluetooth", "state": "connected", "name": .string(Self.hostile), "battery": 80, "problem": .string(Self.hostile)]]]
        let st = run(["status"], replies: [Self.json(status)])
        #expect(Self.raw(st.stdout).isEmpty, "\(st.stdout.debugDescription)")
        #expect(st.stdout.contains(#"Sensor:    Ride\e[2J"#), "\(st.stdout)")

        let refused = run(["show", "20261121T093000Z-3f9a"], replies: [#"{"ok":false,"error":{"code":"io_error","message":"cannot read /h/\u001b[2Jx.gpx"}}"#])
        #expect(refused.stderr == "workoutctl: cannot read /h/\\e[2Jx.gpx\n", "\(refused.stderr.debugDescription)")
    }

    @Test func watchPrintsNoControlCharactersButItsOwnRedraw() {
        var status = RendererTests.status("active", workout: Self.workout).objectValue!
        status["sensors"] = [["kind": "bluetooth", "state": "connected", "name": .string(Self.hostile)]]
        status["saveError"] = .string(Self.hostile)  // names a file: in the one-line form too
        var event = status
        event["ok"] = nil
        event["event"] = "status"
        let piped = run(["watch"], replies: [JSON.object(status).serialized(), JSON.object(event).serialized()])
        #expect(Self.raw(piped.stdout).isEmpty, "\(piped.stdout.debugDescription)")
        #expect(piped.stdout.contains(#"\e[2J"#), "\(piped.stdout)")
        let drawn = run(["watch"], replies: [JSON.object(status).serialized(), JSON.object(event).serialized()], terminal: true)
        // On a terminal the only escapes are the redraw's own (cursor up, clear to the end).
        let own = drawn.stdout.replacingOccurrences(of: "\u{1B}[J", with: "").replacingOccurrences(of: #"\u{1B}\[\d+F"#, with: "", options: .regularExpression)
        #expect(Self.raw(own).isEmpty, "\(drawn.stdout.debugDescription)")
        #expect(drawn.stdout.contains(#"\e]0;owned"#))
    }
}
