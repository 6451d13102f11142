import Foundation
import Glibc
import Testing
import TestRequirements
import WorkoutCore
@testable import WorkoutDaemon

/// The strap client's AcquireNotify path (the dbus-peers stand-in only offers StartNotify): a
/// BlueZ made of our own D-Bus connection on a real dbus-daemon owns `org.bluez`, offers a
/// characteristic with `NotifyAcquired`, and hands over one end of a SOCK_SEQPACKET pair whose
/// every packet is a notification, as BlueZ does.
@Suite(.requires(.program(.dbusDaemon)))
struct BluetoothSensorTests {
    static let dev = "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"
    static let svc = dev + "/service0010"
    static let hrm = svc + "/char0011"

    static func tree() -> DBusValue {
        func ifaces(_ pairs: [(String, [(String, DBusValue)])]) -> DBusValue {
            .dictionary(key: .string, value: .array(.dictEntry(.string, .variant)), pairs.map { (.string($0.0), DBusValue.properties($0.1)) })
        }
        return .dictionary(key: .objectPath, value: .array(.dictEntry(.string, .array(.dictEntry(.string, .variant)))), [
            (.objectPath(dev), ifaces([("org.bluez.Device1", [("Address", .string("C0:FF:EE:00:00:02")), ("Alias", .string("Fake strap")),
                                                              ("Connected", .boolean(true)), ("ServicesResolved", .boolean(true)),
                                                              ("UUIDs", .strings([BlueZObjects.UUID.heartRateService]))]),
                                       ("org.bluez.Battery1", [("Percentage", .byte(55))])])),
            (.objectPath(svc), ifaces([("org.bluez.GattService1", [("UUID", .string(BlueZObjects.UUID.heartRateService)), ("Device", .objectPath(dev))])])),
            (.objectPath(hrm), ifaces([("org.bluez.GattCharacteristic1", [
                ("UUID", .string(BlueZObjects.UUID.heartRateMeasurement)), ("Service", .objectPath(svc)),
                ("Flags", .strings(["notify"])), ("NotifyAcquired", .boolean(false))])])),
        ])
    }

    @Test func acquireNotifyReadsEveryPacketAndASocketCloseIsADrop() throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let loop = try EventLoop()
        // The fake BlueZ.
        let fake = try DBusConnection(address: bus.address, loop: loop)
        let owned = Box(false)
        fake.callBus("RequestName", [.string("org.bluez"), .uint32(4)]) { owned.value = (try? $0.get()) != nil }
        #expect(run(loop) { owned.value })
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        let acquired = Box(0)
        fake.export(path: "/") { _ in .reply([Self.tree()]) }
        fake.export(path: Self.hrm) { call in
            guard call.message.member == "AcquireNotify" else { return .error(name: "org.bluez.Error.NotSupported", message: "") }
            acquired.value += 1
            return .reply([.unixFD(0), .uint16(23)], fds: [pair[1]])
        }
        // The client.
        let reports = Box<[String]>([])
        let ages = Box<[Double]>([])
        let sensor = BluetoothSensor(.bluetooth(address: nil), loop: loop, clock: DaemonClock(SystemClock()),
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(bus.directory)/bus"]) { r in
            switch r {
            case .reading(let bpm, let rr, let age): reports.value.append("reading \(bpm) \(rr)"); ages.value.append(age)
            case .stopped: reports.value.append("stopped")
            case .sensorReading(let s, let r, _): reports.value.append("\(s) \(r)")
            case .sensorStopped(let s): reports.value.append("\(s) stopped")
            case .log(let e): reports.value.append(e.name)
            case .trainerLog(let e): reports.value.append(e.name)
            }
        }
        sensor.open()
        #expect(run(loop) { reports.value.contains("sensor.connected") })
        #expect(acquired.value == 1)
        #expect(sensor.machine.phase.info == SensorInfo(name: "Fake strap", battery: 55))
        Glibc.close(pair[1])  // the client has its own duplicate
        for packet: [UInt8] in [[0x16, 120, 0x00, 0x02], [0x10, 121, 0x01, 0x02, 0x02, 0x02], [0x07], [0x14, 90]] {
            _ = packet.withUnsafeBytes { send(pair[0], $0.baseAddress, $0.count, 0) }
        }
        #expect(run(loop) { reports.value.contains("sensor.no_contact") })
        #expect(reports.value == ["sensor.connecting", "sensor.connected", "reading 120 [512]", "reading 121 [513, 514]", "stopped", "sensor.no_contact"])
        #expect(sensor.badMeasurements == 1)  // [0x07]: 16-bit value missing
        // Subscribed, the socket is read in batches (`WatchMode.batched`): the four packets sent
        // together were read together, each dated by its estimated arrival, the earlier ones
        // earlier (two readings dated alike would lose the second: a heart-rate track takes
        // only later readings).
        #expect(ages.value.count == 2 && ages.value[0] > ages.value[1] && ages.value[1] > 0, "ages \(ages.value)")
        _ = [UInt8]([0x16, 122]).withUnsafeBytes { send(pair[0], $0.baseAddress, $0.count, 0) }
        #expect(run(loop) { reports.value.last == "reading 122 []" })
        // BlueZ closes the socket when the strap goes: a drop, retried with backoff.
        Glibc.close(pair[0])
        #expect(run(loop) { reports.value.contains("sensor.lost") })
        #expect(reports.value.suffix(2) == ["stopped", "sensor.lost"])
        #expect(sensor.machine.phase.problem(now: DaemonClock(SystemClock()).now())?.contains("notification socket closed") == true)
        sensor.close()
        #expect(sensor.machine.phase == .closed)
        fake.close()
    }
}
