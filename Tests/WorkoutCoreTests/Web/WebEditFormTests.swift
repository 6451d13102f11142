import Testing
@testable import WorkoutCore

@Suite struct WebEditFormTests {
    static func summary() -> WorkoutSummary {
        var s = WebFixtures.ride(points: 10).summary
        s.title = "Lake loop"; s.gear = "Old shoes"; s.effort = 6
        return s
    }

    @Test func onlyWhatChangedIsEdited() {
        let s = Self.summary()
        // The form as the page sends it, untouched: nothing to do.
        let same = [("token", "t"), ("activity", "cycling"), ("title", "Lake loop"), ("gear", "Old shoes"), ("effort", "6"), ("notes", "")]
        expectEqual(WebEditForm.read(same.map { (name: $0.0, value: $0.1) }, current: s), .unchanged)
        // A new title and notes (CR LF from the textarea), gear emptied, effort cleared.
        let changed = [("activity", "cycling"), ("title", " Lake loop, windy "), ("gear", ""), ("effort", ""), ("notes", "Headwind\r\nall the way")]
        let edit = WorkoutEdit(title: .set("Lake loop, windy"), notes: .set("Headwind\nall the way"), gear: .clear, effort: .clear)
        expectEqual(WebEditForm.read(changed.map { (name: $0.0, value: $0.1) }, current: s), .edit(edit))
        // A new activity alone.
        expectEqual(WebEditForm.read([(name: "activity", value: "hiking")], current: s), .edit(WorkoutEdit(activity: .hiking)))
    }

    @Test func badFieldsAreRefusedWithTheReason() {
        let s = Self.summary()
        expectEqual(WebEditForm.read([(name: "activity", value: "flying")], current: s), .refused("'flying' is not an activity."))
        expectEqual(WebEditForm.read([(name: "effort", value: "11")], current: s), .refused("effort must be 1 (very easy) to 10 (maximal), not 11."))
        expectEqual(WebEditForm.read([(name: "effort", value: "hard")], current: s), .refused("effort must be a number from 1 to 10, not 'hard'."))
        let long = String(repeating: "x", count: WorkoutAnnotation.maxTitleLength + 1)
        expectEqual(WebEditForm.read([(name: "title", value: long)], current: s), .refused("title is longer than 200 characters."))
    }

    @Test func thePageShowsAndOffersTheAnnotation() {
        var w = WebFixtures.ride(points: 600)
        w.summary.title = "Lake <loop>"; w.summary.gear = "Bike"; w.summary.effort = 7; w.summary.notes = "Windy"
        var report = WorkoutPage.Report()
        let html = WebFixtures.text(WorkoutPage(workout: w).render(WebFixtures.context, report: &report))
        #expect(html.contains("<h1>Lake &lt;loop&gt;</h1>"))
        #expect(html.contains("Gear: Bike · Effort 7/10") && html.contains("<p class=\"notes\">Windy</p>"))
        #expect(html.contains("name=\"title\" maxlength=\"200\" value=\"Lake &lt;loop&gt;\""))
        #expect(html.contains("<option value=\"7\" selected>7</option>"))
        #expect(html.contains("<textarea name=\"notes\" rows=\"4\" maxlength=\"10000\">Windy</textarea>"))
    }
}
