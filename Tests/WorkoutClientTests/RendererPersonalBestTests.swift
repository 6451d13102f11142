import Testing
import WorkoutCore
@testable import WorkoutClient

/// The personal bests a workout set, from the `personalBests` key of `stop` and `show` replies.
@Suite struct RendererPersonalBestTests {
    let r = Renderer(clock: .utc)

    static let bests: JSON = [
        ["distanceMeters": 1609.344, "seconds": 431.2, "startTime": "2026-11-21T09:31:00.000Z", "previousSeconds": 455],
        ["distanceMeters": 5000, "seconds": 1471.4, "startTime": "2026-11-21T09:31:00.000Z", "previousSeconds": 1502.9],
        ["distanceMeters": 10000, "seconds": 3100, "startTime": "2026-11-21T09:31:00.000Z", "previousSeconds": nil],
    ]

    @Test func stopAndShowNameEveryBest() {
        let stop: JSON = ["ok": true, "state": "saving", "workout": RendererTests.runSummary, "personalBests": Self.bests, "units": "imperial"]
        let show: JSON = ["ok": true, "workout": RendererTests.runSummary, "events": [], "personalBests": Self.bests]
        for text in [r.stopped(stop), r.show(show)] {
            #expect(text.contains("Personal best: fastest 1 mile 7:11 (previous 7:35)\n"), "\(text)")
            #expect(text.contains("Personal best: fastest 5 km 24:31 (previous 25:02)\n"))
            #expect(text.contains("First efforts: 10 km 51:40\n"))
        }
        #expect(!r.stopped(["ok": true, "state": "saving", "workout": RendererTests.runSummary, "personalBests": []]).contains("Personal best"))
        let firsts: JSON = [["distanceMeters": 400, "seconds": 99.8, "previousSeconds": nil], ["distanceMeters": 1000, "seconds": 249.5, "previousSeconds": nil]]
        #expect(r.show(["ok": true, "workout": RendererTests.runSummary, "personalBests": firsts]).contains("\nFirst efforts: 400 m 1:39, 1 km 4:09\n"))
        #expect(!r.show(["ok": true, "workout": RendererTests.runSummary]).contains("Personal best"), "an older daemon: nothing")
    }
}
