/// The part of BlueZ's object tree (ObjectManager.GetManagedObjects on `/`, doc/org.bluez.*.rst)
/// that finding a sensor needs, as plain values: the shell converts the D-Bus reply
/// into this, and every decision (which device, which characteristic) is made here, testably.
public struct BlueZObjects: Sendable, Equatable {
    /// `org.bluez.Device1`, with `org.bluez.Battery1.Percentage` when BlueZ's battery plugin
    /// exposes the strap's Battery Service.
    public struct Device: Sendable, Equatable {
        public var path: String
        public var address: String
        public var name: String?
        public var uuids: [String]
        public var connected: Bool
        public var servicesResolved: Bool
        public var batteryPercentage: Int?

        public init(path: String, address: String, name: String? = nil, uuids: [String] = [], connected: Bool = false,
                    servicesResolved: Bool = false, batteryPercentage: Int? = nil) {
            self.path = path; self.address = address; self.name = name; self.uuids = uuids; self.connected = connected
            self.servicesResolved = servicesResolved; self.batteryPercentage = batteryPercentage
        }

        /// Name for people: the alias or name, else the address.
        public var displayName: String { name ?? address }
    }

    /// `org.bluez.GattService1`.
    public struct Service: Sendable, Equatable {
        public var path: String
        public var uuid: String
        public var device: String
        public init(path: String, uuid: String, device: String) { self.path = path; self.uuid = uuid; self.device = device }
    }

    /// `org.bluez.GattCharacteristic1`.
    public struct Characteristic: Sendable, Equatable {
        public var path: String
        public var uuid: String
        public var service: String
        public var flags: [String]
        /// Present (true or false) only where BlueZ offers AcquireNotify.
        public var notifyAcquired: Bool?
        public init(path: String, uuid: String, service: String, flags: [String] = [], notifyAcquired: Bool? = nil) {
            self.path = path; self.uuid = uuid; self.service = service; self.flags = flags; self.notifyAcquired = notifyAcquired
        }
    }

    public var devices: [Device] = []
    public var services: [Service] = []
    public var characteristics: [Characteristic] = []

    public init(devices: [Device] = [], services: [Service] = [], characteristics: [Characteristic] = []) {
        self.devices = devices; self.services = services; self.characteristics = characteristics
    }

    /// Bluetooth SIG 16-bit UUIDs in BlueZ's 128-bit spelling.
    public enum UUID {
        public static let heartRateService = full(0x180D)
        public static let heartRateMeasurement = full(0x2A37)
        public static let bodySensorLocation = full(0x2A38)
        public static let batteryService = full(0x180F)
        public static let batteryLevel = full(0x2A19)

        public static func full(_ short: UInt16) -> String {
            let hex = String(short, radix: 16)
            return "0000" + String(repeating: "0", count: 4 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
        }
    }

    /// The device to use: the one with `address` (any case), else the first device (in path
    /// order) that offers the Heart Rate service, preferring one already connected; else the
    /// first that offers one of the other services workoutd reads (`SensorService`).
    public func device(address: String?) -> Device? {
        if let a = address?.uppercased() { return devices.first { $0.address.uppercased() == a } }
        func offering(_ services: [SensorService]) -> [Device] {
            let uuids = Set(services.map(\.uuid))
            return devices.filter { $0.uuids.contains { uuids.contains($0.lowercased()) } }.sorted { $0.path < $1.path }
        }
        let straps = offering([.heartRate])
        if let s = straps.first(where: { $0.connected }) ?? straps.first { return s }
        let others = offering(SensorService.allCases)
        return others.first { $0.connected } ?? others.first
    }

    /// The characteristic with this UUID under a service of `device` (the Heart Rate service for
    /// 0x2A37/0x2A38, the Battery service for 0x2A19).
    public func characteristic(_ uuid: String, of device: Device) -> Characteristic? {
        let mine = Set(services.filter { $0.device == device.path }.map(\.path))
        return characteristics.filter { $0.uuid.lowercased() == uuid && mine.contains($0.service) }.min { $0.path < $1.path }
    }

    /// The measurement characteristics of every service workoutd reads that `device` offers, in
    /// `SensorService` order.
    public func measurements(of device: Device) -> [(service: SensorService, characteristic: Characteristic)] {
        SensorService.allCases.compactMap { s in characteristic(s.measurementUUID, of: device).map { (s, $0) } }
    }

    /// Why no device was found, in words a user can act on.
    public func missingDeviceReason(address: String?) -> String {
        if let a = address { return "BlueZ knows no device \(a) (pair it first: bluetoothctl pair \(a))" }
        return devices.isEmpty ? "BlueZ knows no devices (pair the sensor first: docs/sensors.md)"
                               : "none of the \(devices.count) devices BlueZ knows offers Heart Rate, Cycling Power, Cycling Speed and Cadence or Running Speed and Cadence"
    }
}
