import Testing
import WorkoutCore
@testable import WorkoutClient

/// The status-bar formatter of `watch --format waybar|i3bar`, and its option parsing.
@Suite struct StatusBarTests {
    static func parse(_ s: String) -> JSON { try! JSON.parse(s) }

    @Test func workoutInProgress() {
        let status = Self.parse(#"{"ok":true,"state":"active","workout":{"id":"20261121T093000Z-3f9a","activity":"running","startedAt":"2026-11-21T09:30:00.000Z","elapsedSeconds":754,"movingSeconds":700,"distanceMeters":2310},"gps":{"fix":"3d"}}"#)
        let c = StatusBar.content(status: status, streak: nil)
        #expect(c.text == "Running 0:12:34 2.31 km" && c.cssClass == "active" && c.tooltip.contains("GPS 3d"))
        #expect(StatusBar.line(c, format: .waybar) == #"{"text":"Running 0:12:34 2.31 km","tooltip":"Running: active, moving 0:11:40, GPS 3d","class":"active","alt":"active"}"#)
        #expect(StatusBar.line(c, format: .i3bar) == ##"[{"name":"workoutd","full_text":"Running 0:12:34 2.31 km","short_text":"Running 0:12:34 2.31 km","color":"#50FA7B"}],"##)
        let paused = StatusBar.content(status: Self.parse(#"{"state":"paused","workout":{"id":"20261121T093000Z-3f9a","activity":"yoga","startedAt":"2026-11-21T09:30:00.000Z","elapsedSeconds":60}}"#), streak: nil)
        #expect(paused.text == "Yoga 0:01:00 (paused)" && paused.cssClass == "paused")
        #expect(StatusBar.header(.i3bar) == "{\"version\":1}\n[" && StatusBar.header(.waybar) == nil)
    }

    @Test func idleShowsTheHabitsDueToday() {
        let idle = Self.parse(#"{"state":"idle","workout":null}"#)
        let streak = Self.parse(#"""
        {"ok":true,"streak":{"daily":{"current":4},"habits":[
          {"name":"yoga","done":false,"dueToday":true,"leftText":"1 yoga session left","current":5,"best":9,"atRisk":true},
          {"name":"long ride","done":false,"dueToday":false,"leftText":"1 ride left","current":2,"best":2},
          {"name":"50 km","done":true,"dueToday":true,"leftText":"0.0 km left","current":1,"best":3}]}}
        """#)
        let c = StatusBar.content(status: idle, streak: streak)
        #expect(c.text == "due: yoga (1 yoga session left)")
        #expect(c.cssClass == "at-risk")
        #expect(c.tooltip == "yoga: 1 yoga session left, streak 5 (best 9)\nlong ride: 1 ride left, streak 2 (best 2)\n50 km: done, streak 1 (best 3)")
        let i3 = StatusBar.line(c, format: .i3bar)
        #expect(i3.contains(#""urgent":true"#) && i3.contains(##""color":"#FF5555""##))
        // Everything done; no habits at all.
        let done = Self.parse(#"{"streak":{"habits":[{"name":"a","done":true,"dueToday":true,"current":1,"best":1}]}}"#)
        #expect(StatusBar.content(status: idle, streak: done).text == "habits done")
        #expect(StatusBar.content(status: idle, streak: Self.parse(#"{"streak":{"daily":{"current":3},"habits":[]}}"#)).text == "idle, streak 3")
    }

    @Test func watchFormatOption() throws {
        #expect(try ArgumentParser.parse(["watch", "--format", "waybar"], cwd: "/").get().command == .statusBar(.waybar))
        #expect(try ArgumentParser.parse(["watch", "--format=i3bar"], cwd: "/").get().command == .statusBar(.i3bar))
        #expect(try ArgumentParser.parse(["watch", "--format", "text"], cwd: "/").get().command == .watch)
        #expect((try? ArgumentParser.parse(["watch", "--format", "polybar"], cwd: "/").get()) == nil)
        #expect(try ArgumentParser.parse(["totals", "--month", "--activity", "running"], cwd: "/").get().command == .send(.totals(.month, .running)))
        #expect(try ArgumentParser.parse(["totals"], cwd: "/").get().command == .send(.totals(.week, nil)))
    }
}
