import Testing
@testable import WorkoutCore

@Suite struct ClockWatchTests {
    static let t0 = ClockReading(realtime: 1_795_000_000, boottime: 5000, monotonic: 4000)

    static func after(_ r: ClockReading, real: Double, boot: Double, mono: Double) -> ClockReading {
        ClockReading(realtime: r.realtime + real, boottime: r.boottime + boot, monotonic: r.monotonic + mono)
    }

    @Test func firstReadingAndQuietSecondsReportNothing() {
        var w = ClockWatch()
        #expect(w.observe(Self.t0).isEmpty)
        var r = Self.t0
        for _ in 0..<100 {
            // NTP slewing: 0.5 ms a second at most.
            r = Self.after(r, real: 1.0005, boot: 1, mono: 1)
            #expect(w.observe(r).isEmpty)
        }
    }

    /// A one-hour suspend: REALTIME and BOOTTIME an hour ahead of MONOTONIC. A suspend, not a step.
    @Test func suspendIsNotAStep() {
        var w = ClockWatch()
        _ = w.observe(Self.t0)
        let r = Self.after(Self.t0, real: 3601, boot: 3601, mono: 1)
        expectEqual(w.observe(r), [.suspended(seconds: 3600, from: r.realtime - 3600, to: r.realtime)])
    }

    @Test(arguments: [3600.0, -3600.0, -86400.0, 1.5, -0.8, 8 * 365 * 86400.0] as [Double])
    func stepsOfTheWallClock(seconds: Double) {
        var w = ClockWatch()
        _ = w.observe(Self.t0)
        let r = Self.after(Self.t0, real: 1 + seconds, boot: 1, mono: 1)
        let events = w.observe(r)
        guard events.count == 1, case .stepped(let s, let at) = events[0] else { Issue.record("one step expected: \(events)"); return }
        #expect(abs(s - seconds) < 1e-6 && at == r.realtime)
    }

    @Test func suspendAndStepTogether() {
        var w = ClockWatch()
        _ = w.observe(Self.t0)
        // Suspended 10 min, and NTP stepped the clock 30 s back on resume.
        let r = Self.after(Self.t0, real: 601 - 30, boot: 601, mono: 1)
        expectEqual(w.observe(r), [.suspended(seconds: 600, from: r.realtime - 600, to: r.realtime), .stepped(seconds: -30, at: r.realtime)])
    }
}

@Suite struct SystemClockSyncTests {
    @Test func fromAdjtimex() {
        expectEqual(SystemClockSync(adjtimexResult: 0, status: 0x2001), .synchronized)  // TIME_OK, STA_PLL|STA_NANO
        expectEqual(SystemClockSync(adjtimexResult: 5, status: 0x0001), .unsynchronized)  // TIME_ERROR
        expectEqual(SystemClockSync(adjtimexResult: 0, status: 0x0041), .unsynchronized)  // STA_UNSYNC
        expectEqual(SystemClockSync(adjtimexResult: -1, status: 0), .unknown)
    }
}

@Suite struct WorkoutTimeBaseTests {
    @Test func durationsFollowBoottime() {
        let b = WorkoutTimeBase(ClockReadingFixtures.now)
        expectEqual(b.time(boottime: 5000), 1_795_000_000)
        expectEqual(b.time(boottime: 8600), 1_795_003_600, "a suspended hour counts")
        expectEqual(b.shifted(by: 86400).time(boottime: 5000), 1_795_086_400)
    }

    /// Restored with the wall clock an hour behind the journal: the workout's clock continues from
    /// the journal's last moment; with the clock ahead, from the clock.
    @Test func restoredNeverRunsBehindTheJournal() {
        let now = ClockReadingFixtures.now
        expectEqual(WorkoutTimeBase.restored(now, journalLast: now.realtime + 3600).time(boottime: now.boottime + 2), now.realtime + 3602)
        expectEqual(WorkoutTimeBase.restored(now, journalLast: now.realtime - 60).wall, now.realtime)
        expectEqual(WorkoutTimeBase.restored(now, journalLast: nil).wall, now.realtime)
    }
}

enum ClockReadingFixtures {
    static let now = ClockReading(realtime: 1_795_000_000, boottime: 5000, monotonic: 4000)
}
