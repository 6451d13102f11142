import Testing
@testable import WorkoutCore

/// Scripts of events with the action expected after each.
@Suite struct SensorConnectionTests {
    let strap = SensorInfo(name: "HRM-Dual:000001")

    func reading(_ bpm: Int, contact: SensorContact = .detected, rr: [UInt16] = []) -> HeartRateMeasurement {
        HeartRateMeasurement(bpm: bpm, contact: contact, rrIntervals1024: rr)
    }

    @Test func connectReadLoseContactDropAndReconnectWithBackoff() {
        var c = SensorConnection()
        let r1 = c.open(now: 100)
        expectEqual(r1, [.connect, .log(.connecting)])
        expectEqual(c.phase, .connecting(since: 100, attempt: 0))
        let r2 = c.open(now: 100.5)
        expectEqual(r2, [])
        let r3 = c.connected(strap, now: 101)
        expectEqual(r3, [.log(.connected(strap))])
        expectEqual(c.phase.name, "connected")
        let r4 = c.measured(reading(120, rr: [512]), now: 102)
        expectEqual(r4, [.record(time: 102, bpm: 120, rr: [512])])
        let r5 = c.measured(reading(121, contact: .notSupported), now: 103)
        expectEqual(r5, [.record(time: 103, bpm: 121, rr: [])])
        // Contact lost: one gap, then nothing until contact returns.
        let r6 = c.measured(reading(90, contact: .notDetected), now: 104)
        expectEqual(r6, [.gap(at: 104), .log(.noContact(strap))])
        expectEqual(c.phase, .noContact(strap, since: 104))
        let r7 = c.measured(reading(90, contact: .notDetected), now: 105)
        expectEqual(r7, [])
        let r8 = c.measured(reading(0, contact: .detected), now: 106)
        expectEqual(r8, [])
        let r9 = c.measured(reading(125), now: 107)
        expectEqual(r9, [.log(.contact(strap)), .record(time: 107, bpm: 125, rr: [])])
        // Battery read later.
        var withBattery = strap; withBattery.battery = 80
        c.updated(withBattery)
        expectEqual(c.phase.info?.battery, 80)
        // Dropped: gap, retry after 1 s; the retry fails: 2 s; then 4 s; then it works.
        let r10 = c.failed("disconnected", now: 110)
        expectEqual(r10, [.gap(at: 110), .scheduleRetry(at: 111), .log(.lost("disconnected", retryInSeconds: 1))])
        expectEqual(c.phase.problem(now: 110.2), "disconnected; retrying in 1 s")
        let r11 = c.measured(reading(130), now: 110.5)
        expectEqual(r11, [])  // a late notification after the drop
        let r12 = c.retryDue(now: 110.9)
        expectEqual(r12, [.scheduleRetry(at: 111)])  // early timer: wait on
        let r13 = c.retryDue(now: 111)
        expectEqual(r13, [.connect, .log(.reconnecting(attempt: 2))])
        let r14 = c.failed("Page Timeout", now: 111.2)
        expectEqual(r14, [.scheduleRetry(at: 113.2), .log(.lost("Page Timeout", retryInSeconds: 2))])
        let r15 = c.retryDue(now: 113.2)
        expectEqual(r15, [.connect, .log(.reconnecting(attempt: 3))])
        let r16 = c.failed("Page Timeout", now: 113.4)
        expectEqual(r16, [.scheduleRetry(at: 117.4), .log(.lost("Page Timeout", retryInSeconds: 4))])
        let r17 = c.retryDue(now: 117.4)
        expectEqual(r17, [.connect, .log(.reconnecting(attempt: 4))])
        let r18 = c.connected(withBattery, now: 117.6)
        expectEqual(r18, [.log(.connected(withBattery))])
        let r19 = c.measured(reading(131), now: 118)
        expectEqual(r19, [.record(time: 118, bpm: 131, rr: [])])
        let r20 = c.close(now: 120)
        expectEqual(r20, [.gap(at: 120), .disconnect, .log(.closed)])
        expectEqual(c.phase, .closed)
        let r21 = c.close(now: 121)
        expectEqual(r21, [])
        let r22 = c.retryDue(now: 121)
        expectEqual(r22, [])
    }

    @Test func backoffDoublesToThirtySeconds() {
        expectEqual((1...8).map { SensorConnection.Backoff().after(failures: $0) }, [1, 2, 4, 8, 16, 30, 30, 30])
        expectEqual((1...5).map { SensorConnection.Backoff(first: 0.25, longest: 1).after(failures: $0) }, [0.25, 0.5, 1, 1, 1])
        var c = SensorConnection()
        _ = c.open(now: 0)
        var t = 0.0
        for expected in [1.0, 2, 4, 8, 16, 30, 30] {
            let a = c.failed("no such device", now: t)
            expectEqual(a.first, .scheduleRetry(at: t + expected))
            t += expected
            let r23 = c.retryDue(now: t)
            expectEqual(r23.first, .connect)
        }
    }

    @Test func silenceIsADrop() {
        var c = SensorConnection()
        _ = c.open(now: 0)
        _ = c.connected(strap, now: 1)
        let r24 = c.tick(now: 11)
        expectEqual(r24, [])
        let r25 = c.tick(now: 11.5)
        expectEqual(r25.first, .gap(at: 11.5))
        expectEqual(c.phase.name, "lost")
        _ = c.retryDue(now: 12.5)
        _ = c.connected(strap, now: 13)
        _ = c.measured(reading(100), now: 14)
        let r26 = c.tick(now: 24)
        expectEqual(r26, [])
        let r27 = c.tick(now: 24.1)
        expectEqual(r27.count, 3)
    }

    @Test func closeWhileConnectingOrLostAndLateAnswers() {
        var c = SensorConnection()
        _ = c.open(now: 0)
        let r28 = c.close(now: 1)
        expectEqual(r28, [.disconnect, .log(.closed)])
        let r29 = c.connected(strap, now: 2)
        expectEqual(r29, [])  // the abandoned attempt answered late
        expectEqual(c.phase, .closed)
        _ = c.open(now: 3)
        _ = c.failed("x", now: 4)
        let r30 = c.failed("y", now: 4.5)
        expectEqual(r30, [])
        let r31 = c.close(now: 5)
        expectEqual(r31, [.disconnect, .log(.closed)])
        expectNil(c.phase.since)
    }
}
