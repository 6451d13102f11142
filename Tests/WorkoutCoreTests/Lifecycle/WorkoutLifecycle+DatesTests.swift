import Testing
@testable import WorkoutCore

/// Dating a workout by a GPS receiver while the system clock is unsynchronized (docs/time.md):
/// the core decides when the workout's dates move and by how much; a move changes its dates,
/// never its durations or distance.
@Suite struct WorkoutLifecycleDatesTests {
    static let start = 1_795_000_000.0
    static let day = 86_400.0
    static let id = WorkoutID(start: 1_795_000_000, suffix: 7)

    /// A walk at 1.5 m/s, one fix a second; `t` seconds after the start (true time).
    static func fix(_ t: Double, receiverAhead: Double) -> Fix {
        Fix(time: start + receiverAhead + t, latitude: 48, longitude: 11.5 + t * 1.5 / (111_320 * 0.66913),
            altitude: 500, mode: .threeD, horizontalAccuracy: 3)
    }

    /// 60 s of walking with the system clock a day behind the receiver (which has true time).
    /// With `sync` unsynchronized the core is asked once a second whether to move the dates;
    /// `resyncAt` (seconds) makes the kernel synchronized from then on. The shell's part is only
    /// reading the clocks: the core places the fixes (the receiver's own times go in) and moves
    /// the workout's clock with its dates.
    static func walk(sync: SystemClockSync, resyncAt: Int? = nil, receiverAhead: Double = day) throws -> (saved: RecordedWorkout, shifts: [Double], journal: [JournalRecord]) {
        var l = WorkoutLifecycle()
        var shifts: [Double] = []
        var journal: [JournalRecord] = []
        func keep(_ actions: [LifecycleAction]) {
            for a in actions {
                if case .journal(let r) = a { journal.append(r) }
                if case .datesMoved(let s) = a { shifts.append(s) }
            }
        }
        // The system's clocks: the wall clock a day behind true time; BOOTTIME since boot.
        func reading(_ t: Double) -> ClockReading { ClockReading(realtime: start + t, boottime: 500 + t, monotonic: 500 + t) }
        if case .success(let a) = l.start(.walking, id: id, clock: reading(0), settings: MetricsSettings()) { keep(a) }
        for i in 0...60 {
            let now = l.now(reading(Double(i) + 0.3))  // the workout's clock: the system's + its moves
            keep(l.fixReceived(fix(Double(i), receiverAhead: receiverAhead), at: now))
            let s: SystemClockSync = resyncAt.map { i >= $0 ? .synchronized : sync } ?? sync
            keep(l.datesChecked(sync: s))
        }
        guard case .success(let a) = l.stop(at: l.now(reading(60.5))) else { throw StopRefused() }
        keep(a)
        return (try #require(a.compactMap(\.savedWorkout).first), shifts, journal)
    }

    struct StopRefused: Error {}

    @Test func unsynchronizedClockTakesTheReceiversDates() throws {
        let system = try Self.walk(sync: .synchronized)
        let dated = try Self.walk(sync: .unsynchronized)
        #expect(system.shifts.isEmpty, "a synchronized clock dates the workout")
        // The offset learned at the first fix: the receiver's time minus its arrival (0.3 s late).
        #expect(dated.shifts.count == 1 && abs(dated.shifts[0] - (Self.day - 0.3)) < 1e-6, "moved once, by the receiver's offset: \(dated.shifts)")
        let shift = dated.shifts.first ?? 0
        let a = system.saved.summary, b = dated.saved.summary
        #expect(abs(b.startedAt - Self.start - shift) < 1e-6 && abs(b.startedAt - (Self.start + Self.day)) < 0.5, "started at the receiver's date")
        expectLess(abs((b.endedAt ?? 0) - (a.endedAt ?? 0) - shift), 1e-6)
        #expect(abs(b.elapsedSeconds - a.elapsedSeconds) < 1e-6 && abs(b.movingSeconds - a.movingSeconds) < 1e-6,
                "durations unchanged: \(a.elapsedSeconds)/\(b.elapsedSeconds) \(a.movingSeconds)/\(b.movingSeconds)")
        #expect(a.distanceMeters > 80 && abs(b.distanceMeters - a.distanceMeters) < 1e-6, "distance \(a.distanceMeters) / \(b.distanceMeters)")
        expectEqual(dated.saved.points.count, system.saved.points.count)
        expectEqual(dated.saved.points.map(\.rejection), system.saved.points.map(\.rejection), "the same fixes accepted: \(dated.saved.points.compactMap(\.rejection)) / \(system.saved.points.compactMap(\.rejection))")
        expectEqual(dated.saved.points.map(\.fix.time).last, Self.start + Self.day + 60, "fixes keep the receiver's times")
        #expect(dated.journal.contains(.shifted(by: shift)))
    }

    @Test func synchronizedAgainMovesTheDatesBack() throws {
        let w = try Self.walk(sync: .unsynchronized, resyncAt: 30)
        #expect(w.shifts.count == 2 && w.shifts.first == -(w.shifts.last ?? 0), "there and back: \(w.shifts)")
        let reference = try Self.walk(sync: .synchronized).saved.summary
        expectEqual(w.saved.summary.startedAt, reference.startedAt)
        expectLess(abs(w.saved.summary.distanceMeters - reference.distanceMeters), 1e-6)
        expectLess(abs(w.saved.summary.elapsedSeconds - reference.elapsedSeconds), 1e-6)
    }

    @Test func decision() {
        var trusted = ReceiverClock()
        for i in 0..<5 { _ = trusted.place(receiverTime: Self.start + 4000 + Double(i), arrival: Self.start + Double(i)) }
        var once = ReceiverClock()
        _ = once.place(receiverTime: Self.start + 4000, arrival: Self.start)
        expectEqual(DateSource.system.next(sync: .unsynchronized, receiver: trusted), .receiver(offset: 4000))
        expectEqual(DateSource.system.next(sync: .unsynchronized, receiver: once), .system, "one fix is not consistent time")
        expectEqual(DateSource.system.next(sync: .synchronized, receiver: trusted), .system)
        expectEqual(DateSource.receiver(offset: 4000).next(sync: .unknown, receiver: trusted), .system)
        expectEqual(DateSource.receiver(offset: 4000).next(sync: .unsynchronized, receiver: once), .receiver(offset: 4000), "an untrusted receiver does not move the dates back")
        _ = trusted.workoutClockShifted(by: 4000)
        expectEqual(DateSource.receiver(offset: 4000).next(sync: .unsynchronized, receiver: trusted), .receiver(offset: 4000), "no second move")
        #expect(DateSource.receiver(offset: 86400).describe(sync: .unsynchronized).hasPrefix("GPS receiver"))
        var old = ReceiverClock()  // a replayed 2018 log (or a receiver 1024 weeks behind) is not the time
        for i in 0..<5 { _ = old.place(receiverTime: 1_530_000_000 + Double(i), arrival: Self.start + Double(i)) }
        #expect(old.isTrusted && DateSource.system.next(sync: .unsynchronized, receiver: old) == .system)
    }

    /// Issue 27 item 5: a receiver 63 years ahead (2090) on an unsynchronized clock saved the
    /// workout in 2090, outside today's streak and this week's totals. It no longer dates it;
    /// 9 years ahead (a system clock without a battery, long unused) still does.
    @Test func aReceiverDecadesAheadKeepsTodaysDate() throws {
        let years = 365.25 * Self.day
        let far = try Self.walk(sync: .unsynchronized, receiverAhead: 63 * years)
        let reference = try Self.walk(sync: .synchronized).saved.summary
        #expect(far.shifts.isEmpty, "never moved: \(far.shifts)")
        #expect(far.saved.summary.startedAt == reference.startedAt && far.saved.summary.startedAt < Self.start + Self.day,
                "today's date: \(far.saved.summary.startedAt)")
        expectLess(abs(far.saved.summary.elapsedSeconds - reference.elapsedSeconds), 1e-6)
        expectLess(abs(far.saved.summary.distanceMeters - reference.distanceMeters), 1e-6)
        let near = try Self.walk(sync: .unsynchronized, receiverAhead: 9 * years)
        #expect(near.shifts.count == 1 && abs((near.shifts.first ?? 0) - 9 * years) < 1, "9 years ahead still dates it: \(near.shifts)")
        // Behind 2026 the bound counts from 2026-01-01, not from the system clock (no battery: 1970).
        var early = ReceiverClock()
        for i in 0..<5 { _ = early.place(receiverTime: DateSource.earliestReceiverDate + 86_400 + Double(i), arrival: Double(i)) }
        expectNotEqual(DateSource.choose(sync: .unsynchronized, receiver: early), .system, "a 1970 system clock, a 2026 receiver")
        var late = ReceiverClock()
        for i in 0..<5 { _ = late.place(receiverTime: DateSource.earliestReceiverDate + 11 * years + Double(i), arrival: Double(i)) }
        expectEqual(DateSource.choose(sync: .unsynchronized, receiver: late), .system, "a 1970 system clock, a 2037 receiver")
    }

    @Test func shiftKeepsHeartRate() {
        var r = WorkoutRecorder(id: Self.id, activity: .walking, startedAt: Self.start)
        for i in 0..<30 {
            _ = r.ingest(Self.fix(Double(i), receiverAhead: 0))
            _ = r.heartRate(time: Self.start + Double(i) + 0.5, bpm: 120 + i % 5)
        }
        let s = r.shifted(by: Self.day)
        expectGreaterOrEqual(r.heartRate.samples.count, 29)
        expectEqual(s.heartRate.samples.map(\.time), r.heartRate.samples.map { $0.time + Self.day })
        expectEqual(s.heartRate.samples.map(\.bpm), r.heartRate.samples.map(\.bpm))
        #expect(s.startedAt == r.startedAt + Self.day && s.points.count == r.points.count)
    }

    @Test func journalReplaysTheMove() throws {
        let w = try Self.walk(sync: .unsynchronized)
        let shifted = w.journal.filter { if case .shifted = $0 { return true } else { return false } }
        let line = shifted.first?.encodeLine() ?? ""
        #expect(shifted.count == 1 && JournalRecord.decodeLine(Substring(line.hasSuffix("\n") ? String(line.dropLast()) : line)) == shifted.first,
                "the shifted record survives the codec: \(line)")
        let replay = JournalReplay(records: w.journal, settings: MetricsSettings())
        expectEqual(replay?.recorder.startedAt, w.saved.summary.startedAt)
        expectEqual(replay?.stoppedAt, w.saved.summary.endedAt)
        let r = replay.map { $0.recorder.finish(at: $0.stoppedAt ?? 0).summary }
        expectEqual(r.map { abs($0.distanceMeters - w.saved.summary.distanceMeters) < 1e-6 }, true)
    }
}
