import Testing
@testable import WorkoutCore

@Suite struct BlueZObjectsTests {
    typealias U = BlueZObjects.UUID
    /// The stand-in's tree (../shared/tools/dbus-peers --bluez) plus a keyboard and a second strap.
    static let tree = BlueZObjects(
        devices: [
            .init(path: "/org/bluez/hci0/dev_AA_00_00_00_00_01", address: "AA:00:00:00:00:01", name: "Keyboard", uuids: ["00001812-0000-1000-8000-00805f9b34fb"]),
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01", address: "C0:FF:EE:00:00:01", name: "HRM-Dual:000001", uuids: [U.heartRateService]),
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02", address: "C0:FF:EE:00:00:02", uuids: ["0000180D-0000-1000-8000-00805F9B34FB"], connected: true, batteryPercentage: 70),
        ],
        services: [
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a", uuid: U.heartRateService, device: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"),
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02/service0010", uuid: U.heartRateService, device: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02"),
        ],
        characteristics: [
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000b", uuid: U.heartRateMeasurement, service: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a", flags: ["notify"]),
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000e", uuid: U.bodySensorLocation, service: "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a", flags: ["read"]),
            .init(path: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02/service0010/char0011", uuid: U.heartRateMeasurement, service: "/org/bluez/hci0/dev_C0_FF_EE_00_00_02/service0010"),
        ])

    @Test func uuids() {
        expectEqual(U.heartRateService, "0000180d-0000-1000-8000-00805f9b34fb")
        expectEqual(U.heartRateMeasurement, "00002a37-0000-1000-8000-00805f9b34fb")
        expectEqual(U.batteryLevel, "00002a19-0000-1000-8000-00805f9b34fb")
    }

    @Test func picksTheDeviceByAddressOrTheFirstStrapPreferringAConnectedOne() {
        let t = Self.tree
        expectEqual(t.device(address: "c0:ff:ee:00:00:01")?.name, "HRM-Dual:000001")
        expectNil(t.device(address: "AA:00:00:00:00:09"))
        expectEqual(t.device(address: nil)?.address, "C0:FF:EE:00:00:02")  // connected, upper-case UUID
        var none = t
        none.devices[2].connected = false
        expectEqual(none.device(address: nil)?.address, "C0:FF:EE:00:00:01")
        expectEqual(t.device(address: nil)?.displayName, "C0:FF:EE:00:00:02")
        none.devices = [t.devices[0]]
        expectNil(none.device(address: nil))
        #expect(none.missingDeviceReason(address: nil).contains("none of the 1 devices"))
        #expect(BlueZObjects().missingDeviceReason(address: nil).contains("pair"))
        #expect(BlueZObjects().missingDeviceReason(address: "C0:FF:EE:00:00:01").contains("bluetoothctl pair C0:FF:EE:00:00:01"))
    }

    @Test func findsTheCharacteristicsOfThatDeviceOnly() {
        let t = Self.tree
        let first = t.device(address: "C0:FF:EE:00:00:01")!
        expectEqual(t.characteristic(U.heartRateMeasurement, of: first)?.path, "/org/bluez/hci0/dev_C0_FF_EE_00_00_01/service000a/char000b")
        expectEqual(t.characteristic(U.bodySensorLocation, of: first)?.flags, ["read"])
        expectNil(t.characteristic(U.batteryLevel, of: first))
        let second = t.device(address: "C0:FF:EE:00:00:02")!
        expectEqual(t.characteristic(U.heartRateMeasurement, of: second)?.path.hasSuffix("char0011"), true)
        expectNil(t.characteristic(U.bodySensorLocation, of: second))
    }
}

@Suite struct BlueZObjectsDBusTests {
    @Test func readsAGetManagedObjectsReply() {
        func ifaces(_ pairs: [(String, [(String, DBusValue)])]) -> DBusValue {
            .dictionary(key: .string, value: .array(.dictEntry(.string, .variant)), pairs.map { (.string($0.0), DBusValue.properties($0.1)) })
        }
        let dev = "/org/bluez/hci0/dev_C0_FF_EE_00_00_01"
        let reply = DBusValue.dictionary(key: .objectPath, value: .array(.dictEntry(.string, .array(.dictEntry(.string, .variant)))), [
            (.objectPath("/org/bluez/hci0"), ifaces([("org.bluez.Adapter1", [("Address", .string("00:AA:01:00:00:23"))])])),
            (.objectPath(dev), ifaces([("org.bluez.Device1", [("Address", .string("C0:FF:EE:00:00:01")), ("Alias", .string("HRM-Dual:000001")),
                                                              ("Connected", .boolean(false)), ("ServicesResolved", .boolean(false)),
                                                              ("UUIDs", .strings([BlueZObjects.UUID.heartRateService]))]),
                                       ("org.bluez.Battery1", [("Percentage", .byte(64))])])),
            (.objectPath(dev + "/service000a"), ifaces([("org.bluez.GattService1", [("UUID", .string("0000180D-0000-1000-8000-00805F9B34FB")), ("Device", .objectPath(dev))])])),
            (.objectPath(dev + "/service000a/char000b"), ifaces([("org.bluez.GattCharacteristic1", [
                ("UUID", .string(BlueZObjects.UUID.heartRateMeasurement)), ("Service", .objectPath(dev + "/service000a")),
                ("Flags", .strings(["notify"])), ("NotifyAcquired", .boolean(false))])])),
        ])
        let t = BlueZObjects(managedObjects: reply)
        expectEqual(t.devices, [.init(path: dev, address: "C0:FF:EE:00:00:01", name: "HRM-Dual:000001", uuids: [BlueZObjects.UUID.heartRateService], batteryPercentage: 64)])
        expectEqual(t.services, [.init(path: dev + "/service000a", uuid: BlueZObjects.UUID.heartRateService, device: dev)])
        let hrm = t.characteristic(BlueZObjects.UUID.heartRateMeasurement, of: t.device(address: nil)!)
        #expect(hrm?.notifyAcquired == false && hrm?.flags == ["notify"])
        let changed = BlueZObjects.changedProperties([.string("org.bluez.Device1"), .properties([("Connected", .boolean(false))]), .strings([])], interface: "org.bluez.Device1")
        expectEqual(changed?["Connected"]?.bool, false)
        expectNil(BlueZObjects.changedProperties([.string("org.bluez.Battery1"), .properties([])], interface: "org.bluez.Device1"))
    }

    /// `changedProperty` (one property looked up without a dictionary, every notification) says
    /// what `changedProperties(...)?[name]` says: other interfaces, missing, duplicated (the
    /// later wins), non-string keys (no dictionary), a body that is no `a{sv}`.
    @Test func oneChangedPropertyIsTheDictionarysEntry() {
        let iface = "org.bluez.GattCharacteristic1"
        let value = DBusValue.variant(.bytes([0x16, 90]))
        let bodies: [[DBusValue]] = [
            [.string(iface), .properties([("Value", .bytes([0x16, 90]))]), .strings([])],
            [.string(iface), .properties([("Notifying", .boolean(true)), ("Value", .bytes([1])), ("Value", .bytes([2]))]), .strings([])],
            [.string(iface), .properties([("Notifying", .boolean(true))]), .strings(["Value"])],
            [.string("org.bluez.Device1"), .properties([("Value", .bytes([3]))]), .strings([])],
            [.string(iface), .dictionary(key: .byte, value: .variant, [(.byte(1), value)]), .strings([])],
            [.string(iface), .dictionary(key: .string, value: .variant, [(.string("Value"), value), (.byte(1), value)]), .strings([])],
            [.string(iface), .strings(["Value"])],
            [.string(iface), .variant(.properties([("Value", .bytes([4]))]))],
            [.string(iface)],
            [],
        ]
        for body in bodies {
            for name in ["Value", "Notifying", "Other"] {
                expectEqual(BlueZObjects.changedProperty(name, in: body, interface: iface), BlueZObjects.changedProperties(body, interface: iface)?[name], "\(name) in \(body)")
            }
        }
        expectEqual(BlueZObjects.changedProperty("Value", in: bodies[1], interface: iface)?.byteArray, [2])
    }
}

