import Glibc
import Testing
import WorkoutCore
@testable import WorkoutDaemon

/// #18: idle `status` showed "12 satellites, 923 s ago" from a source closed long before.
@Suite(.serialized) struct FeedHubClosedTests {
    @Test func closingGPSForgetsTheClosedSourcesSatellitesAndFixAge() throws {
        let rig = try FeedHubTests.Rig()
        rig.hub.open()
        let a = try rig.connect()
        defer { close(a) }
        rig.send(a, ["{\"class\":\"FIX\",\"time\":\"2026-11-21T09:30:00Z\",\"lat\":48.0,\"lon\":11.0,\"mode\":3,\"sats\":12}"])
        rig.loop.after(0.2) { rig.loop.stop() }
        try rig.loop.run()
        #expect(rig.hub.status.satellites == 12)
        #expect(rig.hub.status.lastFixMonotonic != nil)
        rig.hub.close()
        #expect(rig.hub.status.satellites == nil, "no satellites from a closed source")
        #expect(rig.hub.status.lastFixMonotonic == nil, "no fix age from a closed source")
        #expect(rig.hub.status.fix == FixMode.noFix.label)
    }
}
