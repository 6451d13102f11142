extension BlueZObjects {
    /// From the reply of `org.freedesktop.DBus.ObjectManager.GetManagedObjects` on BlueZ's `/`
    /// (`a{oa{sa{sv}}}`): devices, GATT services and characteristics. Objects missing a
    /// property BlueZ always sets (a device without Address) are left out.
    public init(managedObjects reply: DBusValue) {
        self.init()
        for (path, ifacesValue) in (reply.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let ifaces = ifacesValue.dictionary else { continue }
            if let d = ifaces["org.bluez.Device1"]?.dictionary, let address = d["Address"]?.string {
                let battery = ifaces["org.bluez.Battery1"]?.dictionary?["Percentage"]?.integer.map { Int($0) }
                devices.append(Device(path: path, address: address, name: d["Alias"]?.string ?? d["Name"]?.string,
                                      uuids: d["UUIDs"]?.elements?.compactMap(\.string) ?? [],
                                      connected: d["Connected"]?.bool ?? false, servicesResolved: d["ServicesResolved"]?.bool ?? false,
                                      batteryPercentage: battery))
            }
            if let s = ifaces["org.bluez.GattService1"]?.dictionary, let uuid = s["UUID"]?.string, let device = s["Device"]?.string {
                services.append(Service(path: path, uuid: uuid.lowercased(), device: device))
            }
            if let c = ifaces["org.bluez.GattCharacteristic1"]?.dictionary, let uuid = c["UUID"]?.string, let service = c["Service"]?.string {
                characteristics.append(Characteristic(path: path, uuid: uuid.lowercased(), service: service,
                                                      flags: c["Flags"]?.elements?.compactMap(\.string) ?? [],
                                                      notifyAcquired: c["NotifyAcquired"]?.bool))
            }
        }
    }

    /// The changed properties of a `PropertiesChanged(s, a{sv}, as)` signal body for `interface`.
    public static func changedProperties(_ body: [DBusValue], interface: String) -> [String: DBusValue]? {
        guard body.count >= 2, body[0].string == interface else { return nil }
        return body[1].dictionary
    }

    /// One changed property of a `PropertiesChanged(s, a{sv}, as)` body for `interface`:
    /// `changedProperties(body, interface:)?[name]`, without building the dictionary.
    public static func changedProperty(_ name: String, in body: [DBusValue], interface: String) -> DBusValue? {
        guard body.count >= 2, body[0].string == interface else { return nil }
        return body[1].dictionaryValue(forKey: name)
    }
}
