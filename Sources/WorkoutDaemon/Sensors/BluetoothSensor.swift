import Glibc
import WorkoutCore

/// A Bluetooth LE sensor through BlueZ on the system D-Bus (doc/org.bluez.*.rst), read for
/// every service it offers: Heart Rate, Cycling Power, Cycling Speed and Cadence, Running Speed
/// and Cadence (`SensorService`). The decisions are `SensorConnection`'s (a pure machine, with
/// the counters' `SensorRates`) and `BlueZObjects`'; this class performs its actions: find the
/// device (ObjectManager.GetManagedObjects), Device1.Connect, wait for ServicesResolved, find
/// each service's measurement characteristic, subscribe to each (AcquireNotify where BlueZ
/// offers it, else StartNotify and PropertiesChanged on Value), read Body Sensor Location and
/// the battery. A drop (Connected or ServicesResolved going false, silence, the bus closing) is
/// reported to the machine, which retries with backoff.
final class BluetoothSensor {
    /// What the sensor tells its owner.
    enum Report {
        /// A heart-rate reading that arrived about `age` seconds ago (read in a batch; 0 when
        /// read as it came), to be dated by the daemon's clock.
        case reading(bpm: Int, rr: [UInt16], age: Double)
        /// The heart-rate readings stopped (contact lost, dropped, closed): a gap.
        case stopped
        /// A power, speed/cadence or running reading that arrived about `age` seconds ago.
        case sensorReading(SensorSource, SensorReading, age: Double)
        /// That source's readings stopped: a gap.
        case sensorStopped(SensorSource)
        case log(SensorLogEvent)
        /// What the trainer's control did (docs/plans.md, "The trainer").
        case trainerLog(TrainerLogEvent)

        /// How long ago what it reports arrived: a reading's age, 0 for the rest.
        var age: Double {
            switch self {
            case .reading(_, _, let age), .sensorReading(_, _, let age): return age
            case .stopped, .sensorStopped, .log, .trainerLog: return 0
            }
        }

        /// The same report, a reading's age set to `age`.
        func aged(_ age: Double) -> Report {
            switch self {
            case .reading(let bpm, let rr, _): return .reading(bpm: bpm, rr: rr, age: age)
            case .sensorReading(let source, let r, _): return .sensorReading(source, r, age: age)
            case .stopped, .sensorStopped, .log, .trainerLog: return self
            }
        }
    }

    let config: SensorConfig
    let address: String?
    private unowned let loop: EventLoop
    private let clock: DaemonClock
    private let environment: [String: String]
    private let report: (Report) -> Void
    private(set) var machine: SensorConnection
    /// Measurements that did not parse (`status.sensors[].badMeasurements`).
    private(set) var badMeasurements = 0

    private var bus: DBusConnection?
    /// Counts connection attempts; callbacks of an abandoned attempt see a different number.
    private var attempt = 0
    private var retryToken: EventLoop.Token?
    private var waitToken: EventLoop.Token?
    private var matchTokens: [Int] = []
    private var device: BlueZObjects.Device?
    /// The measurement characteristics subscribed to in this attempt, by path.
    private var subscribed: [(path: String, service: SensorService)] = []
    /// AcquireNotify sockets (fd, watch) of this attempt.
    private var notifySockets: [(fd: Int32, token: EventLoop.Token)] = []
    /// Set while waiting for ServicesResolved after Connect.
    private var onResolved: (() -> Void)?
    /// A smart trainer's control (FTMS), driven by the plan through `wantTrainer`.
    private(set) var trainer = TrainerControl()
    /// This attempt's Fitness Machine Control Point, when the device offers one.
    private var controlPoint: ControlPoint?
    /// Whether a close of the workout's pause was held back for a paused trainer.
    private var hold = Hold.none

    private enum Hold {
        case none
        /// The workout paused with the trainer under control: the link stays for Start/Resume.
        case pausedTrainer
    }

    /// The control point's characteristic and whether its indications are on: writes wait for
    /// them (a trainer refuses a write while they are off).
    private struct ControlPoint {
        var path: String
        var indications: Indications
        enum Indications { case off, starting(queued: [[UInt8]]), on }
    }

    static let bluez = "org.bluez"
    static let properties = "org.freedesktop.DBus.Properties"
    static let connectTimeout = 30.0
    static let resolveTimeout = 20.0

    /// `backoff`: the waits between attempts after failures (the product's by default).
    init(_ config: SensorConfig, loop: EventLoop, clock: DaemonClock, environment: [String: String],
         backoff: SensorConnection.Backoff = .init(), report: @escaping (Report) -> Void) {
        self.config = config
        switch config {
        case .bluetooth(let a, _): address = a
        }
        machine = SensorConnection(wheelCircumference: config.wheelCircumference, backoff: backoff)
        self.loop = loop
        self.clock = clock
        self.environment = environment
        self.report = report
    }

    deinit { teardown() }

    // MARK: - Owner's calls

    func open() {
        hold = .none
        perform(machine.open(now: clock.now()))
    }

    /// The workout paused or stopped. A trainer the plan wants paused keeps its link (it was
    /// asked to Stop/Pause, and the resume asks it to Start/Resume: `keepsLinkWhilePaused`);
    /// its readings go on and the paused workout ignores them.
    func close() {
        if trainer.keepsLinkWhilePaused {
            hold = .pausedTrainer
            return
        }
        hold = .none
        perform(machine.close(now: clock.now()))
    }

    /// The daemon stops or a reload replaces the sensor: closed whatever the plan wants (a
    /// trainer under control is reset first).
    func shutdown() {
        hold = .none
        perform(machine.close(now: clock.now()))
    }

    func tick() {
        perform(machine.tick(now: clock.now()))
        performTrainer(trainer.tick(now: clock.now()))
    }

    /// What the plan wants of a trainer (nothing happens on a device without a control point).
    /// Anything but a pause while the link is held for one (the workout stopped while paused, or
    /// `next` moved to a step without power) lets the link go now, the trainer reset with it.
    func wantTrainer(_ w: TrainerControl.Want) {
        if case .pausedTrainer = hold, w != .paused {
            hold = .none
            perform(machine.close(now: clock.now()))
        }
        performTrainer(trainer.want(w, now: clock.now()))
    }

    // MARK: - The trainer's control point

    private func performTrainer(_ actions: [TrainerAction]) {
        for action in actions {
            switch action {
            case .enableIndications: enableIndications()
            case .write(let bytes): writeControlPoint(bytes)
            case .log(let e): report(.trainerLog(e))
            }
        }
    }

    /// StartNotify on the control point, its indications routed to the machine; writes made
    /// meanwhile wait for it.
    private func enableIndications() {
        guard var cp = controlPoint, case .off = cp.indications, let bus else { return }
        cp.indications = .starting(queued: [])
        controlPoint = cp
        let a = attempt, path = cp.path
        let rule = DBusMatchRule(path: path, interface: Self.properties, member: "PropertiesChanged", arg0: "org.bluez.GattCharacteristic1")
        matchTokens.append(bus.addMatch(rule, done: { [weak self] r in
            guard let self, a == self.attempt else { return }
            if case .failure(let e) = r { self.fail("AddMatch: \(e)", attempt: a); return }
            self.call(path, "org.bluez.GattCharacteristic1", "StartNotify", attempt: a) { [weak self] _ in
                guard let self, a == self.attempt, var cp = self.controlPoint, case .starting(let queued) = cp.indications else { return }
                cp.indications = .on
                self.controlPoint = cp
                for bytes in queued { self.writeControlPoint(bytes) }
            }
        }) { [weak self] m in
            guard let self, a == self.attempt,
                  let value = BlueZObjects.changedProperty("Value", in: m.body, interface: "org.bluez.GattCharacteristic1")?.byteArray else { return }
            self.performTrainer(self.trainer.indicated(value, now: self.clock.now()))
        })
    }

    /// WriteValue on the control point (a write request: the trainer answers by indication).
    /// A refused write is not a dropped sensor: the machine's time-out takes control again.
    private func writeControlPoint(_ bytes: [UInt8]) {
        guard var cp = controlPoint, let bus else { return }
        switch cp.indications {
        case .starting(var queued):
            queued.append(bytes)
            cp.indications = .starting(queued: queued)
            controlPoint = cp
            return
        case .off, .on:
            break
        }
        let options: DBusValue = .properties([("type", .string("request"))])
        bus.call(.methodCall(destination: Self.bluez, path: cp.path, interface: "org.bluez.GattCharacteristic1", member: "WriteValue",
                             body: [.bytes(bytes), options])) { _ in }
    }

    // MARK: - Performing the machine's actions

    /// `age`: how long ago the notification that led to these actions arrived.
    private func perform(_ actions: [SensorAction], age: Double = 0) {
        for a in actions {
            switch a {
            case .connect: connect()
            case .scheduleRetry(let at):
                if let t = retryToken { loop.cancel(t) }
                retryToken = loop.after(max(0, at - clock.now())) { [weak self] in
                    guard let self else { return }
                    self.retryToken = nil
                    self.perform(self.machine.retryDue(now: self.clock.now()))
                }
            case .record(_, let bpm, let rr): report(.reading(bpm: bpm, rr: rr, age: age))
            case .reading(_, let source, let r): report(.sensorReading(source, r, age: age))
            case .gap: report(.stopped)
            case .sensorGap(_, let source): report(.sensorStopped(source))
            case .disconnect: disconnect()
            case .log(let e): report(.log(e))
            }
        }
    }

    /// Something went wrong in the current attempt or connection: undo it and tell the machine.
    private func fail(_ reason: String, attempt a: Int) {
        guard a == attempt else { return }
        cleanupAttempt()
        perform(machine.failed(reason, now: clock.now()))
    }

    private func cleanupAttempt() {
        attempt += 1
        if let t = waitToken { loop.cancel(t) }
        waitToken = nil
        onResolved = nil
        for m in matchTokens { bus?.removeMatch(m) }
        matchTokens = []
        bus?.setMode(.immediate)  // the next attempt's calls answered at once
        closeNotifySockets()
        subscribed = []
        if controlPoint != nil {
            controlPoint = nil
            performTrainer(trainer.disconnected(now: clock.now()))
        }
    }

    private func teardown() {
        cleanupAttempt()
        if let t = retryToken { loop.cancel(t) }
        retryToken = nil
        bus?.close()
        bus = nil
    }

    /// Unsubscribes and disconnects the device (saves its battery), then lets the bus go.
    private func disconnect() {
        let paths = subscribed.map(\.path)
        let dev = device
        if controlPoint != nil {
            // Our own close: the trainer is reset before the device goes (no "dropped out").
            performTrainer(trainer.closed())
            controlPoint = nil
        }
        cleanupAttempt()
        if let t = retryToken { loop.cancel(t) }
        retryToken = nil
        guard let bus, !bus.isClosed else { return }
        for path in paths {
            bus.call(.methodCall(destination: Self.bluez, path: path, interface: "org.bluez.GattCharacteristic1", member: "StopNotify")) { _ in }
        }
        if let dev {
            bus.call(.methodCall(destination: Self.bluez, path: dev.path, interface: "org.bluez.Device1", member: "Disconnect")) { _ in }
        }
    }

    // MARK: - Connecting

    private func connect() {
        cleanupAttempt()
        let a = attempt
        if let bus, !bus.isClosed {
            findDevice(a)
            return
        }
        do {
            let address = try DBusAddress.system(environment: environment)
            // Immediate while connecting and subscribing; batched once subscribed.
            let conn = try DBusConnection(address: address, loop: loop)
            bus = conn
            conn.onReady = { [weak self] result in
                guard let self else { return }
                switch result {
                case .success: self.findDevice(a)
                case .failure(let e): self.bus = nil; self.fail("system bus: \(e)", attempt: a)
                }
            }
            conn.onClose = { [weak self] e in
                guard let self else { return }
                self.bus = nil
                self.fail("system bus closed: \(e)", attempt: self.attempt)
            }
        } catch {
            fail("system bus: \(error)", attempt: a)
        }
    }

    private func call(_ path: String, _ interface: String, _ member: String, _ body: [DBusValue] = [], timeout: Double? = nil,
                      attempt a: Int, _ then: @escaping (DBusIncoming) -> Void) {
        guard let bus else { fail("system bus closed", attempt: a); return }
        bus.call(.methodCall(destination: Self.bluez, path: path, interface: interface, member: member, body: body), timeout: timeout) { [weak self] r in
            guard let self, a == self.attempt else { return }
            switch r {
            case .success(let reply): then(reply)
            case .failure(let e): self.fail("\(member): \(e)", attempt: a)
            }
        }
    }

    private func managedObjects(_ a: Int, _ then: @escaping (BlueZObjects) -> Void) {
        call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects", attempt: a) { reply in
            then(BlueZObjects(managedObjects: reply.body.first ?? .array(.byte, [])))
        }
    }

    private func findDevice(_ a: Int) {
        managedObjects(a) { [weak self] tree in
            guard let self else { return }
            guard let dev = tree.device(address: self.address) else {
                self.fail(tree.missingDeviceReason(address: self.address), attempt: a)
                return
            }
            self.device = dev
            self.watchDevice(dev, a)
            if dev.connected && dev.servicesResolved {
                self.subscribe(a)
            } else {
                self.onResolved = { [weak self] in self?.subscribe(a) }
                self.waitToken = self.loop.after(Self.resolveTimeout) { [weak self] in
                    self?.fail("services not resolved within \(Int(Self.resolveTimeout)) s", attempt: a)
                }
                if !dev.connected {
                    self.call(dev.path, "org.bluez.Device1", "Connect", timeout: Self.connectTimeout, attempt: a) { _ in }
                }
            }
        }
    }

    /// Follows the device's Connected and ServicesResolved (PropertiesChanged).
    private func watchDevice(_ dev: BlueZObjects.Device, _ a: Int) {
        guard let bus else { return }
        let rule = DBusMatchRule(path: dev.path, interface: Self.properties, member: "PropertiesChanged", arg0: "org.bluez.Device1")
        matchTokens.append(bus.addMatch(rule) { [weak self] m in
            guard let self, a == self.attempt,
                  let changed = BlueZObjects.changedProperties(m.body, interface: "org.bluez.Device1") else { return }
            if changed["Connected"]?.bool == false || changed["ServicesResolved"]?.bool == false {
                self.fail("disconnected", attempt: a)
                return
            }
            if let p = changed["Battery"]?.integer { self.updateBattery(Int(p)) }
            if changed["ServicesResolved"]?.bool == true, let next = self.onResolved {
                self.onResolved = nil
                if let t = self.waitToken { self.loop.cancel(t) }
                self.waitToken = nil
                next()
            }
        })
    }

    private func subscribe(_ a: Int) {
        managedObjects(a) { [weak self] tree in
            guard let self, let dev = self.device,
                  let fresh = tree.devices.first(where: { $0.path == dev.path }) else {
                self?.fail("the sensor disappeared from BlueZ", attempt: a)
                return
            }
            self.device = fresh
            let measurements = tree.measurements(of: fresh)
            guard !measurements.isEmpty else {
                self.fail("\(fresh.displayName) has no Heart Rate, Cycling Power, CSC or RSC measurement characteristic", attempt: a)
                return
            }
            let info = SensorInfo(name: fresh.displayName, battery: fresh.batteryPercentage, services: measurements.map(\.service))
            let location = tree.characteristic(BlueZObjects.UUID.bodySensorLocation, of: fresh)
            let battery = fresh.batteryPercentage == nil ? tree.characteristic(BlueZObjects.UUID.batteryLevel, of: fresh) : nil
            let done: () -> Void = { [weak self] in
                guard let self, a == self.attempt else { return }
                // The notifications read with the light feed, at most 1 s late, each dated by
                // its estimated arrival: about one wake-up a second for four sensors instead
                // of one per notification (`WatchMode.batched`, BENCHMARKS.md).
                // A trainer's control point answers each write: read at once, so that a step's
                // power follows within a second (the trainer's notifications come with them).
                let controlPoint = tree.characteristic(BlueZObjects.UUID.full(0x2AD9), of: fresh)
                self.bus?.setMode(controlPoint == nil ? .batched : .immediate)
                self.perform(self.machine.connected(info, now: self.clock.now()))
                if let controlPoint {
                    self.controlPoint = ControlPoint(path: controlPoint.path, indications: .off)
                    self.performTrainer(self.trainer.connected(now: self.clock.now()))
                }
                if let location { self.readDetail(location.path, a) { self.updateLocation(BodySensorLocation(value: $0)) } }
                if let battery { self.readDetail(battery.path, a) { self.updateBattery(BatteryLevel.decode($0)) } }
            }
            self.subscribeEach(measurements[...], a, then: done)
        }
    }

    /// Subscribes to each measurement characteristic in turn, then `then`.
    private func subscribeEach(_ rest: ArraySlice<(service: SensorService, characteristic: BlueZObjects.Characteristic)>, _ a: Int,
                               then: @escaping () -> Void) {
        guard let (service, c) = rest.first else { then(); return }
        subscribed.append((c.path, service))
        let next: () -> Void = { [weak self] in
            guard let self, a == self.attempt else { return }
            self.subscribeEach(rest.dropFirst(), a, then: then)
        }
        if c.notifyAcquired != nil {
            acquireNotify(c.path, service, a, then: next)
        } else {
            startNotify(c.path, service, a, then: next)
        }
    }

    /// StartNotify, with the values arriving as PropertiesChanged on the characteristic.
    private func startNotify(_ path: String, _ service: SensorService, _ a: Int, then: @escaping () -> Void) {
        guard let bus else { fail("system bus closed", attempt: a); return }
        let rule = DBusMatchRule(path: path, interface: Self.properties, member: "PropertiesChanged", arg0: "org.bluez.GattCharacteristic1")
        matchTokens.append(bus.addMatch(rule, done: { [weak self] r in
            guard let self, a == self.attempt else { return }
            if case .failure(let e) = r { self.fail("AddMatch: \(e)", attempt: a); return }
            self.call(path, "org.bluez.GattCharacteristic1", "StartNotify", attempt: a) { _ in then() }
        }) { [weak self] m in
            guard let self, a == self.attempt,
                  let value = BlueZObjects.changedProperty("Value", in: m.body, interface: "org.bluez.GattCharacteristic1")?.byteArray else { return }
            self.measured(value, service, age: self.bus?.messageAge ?? 0)
        })
    }

    /// AcquireNotify: BlueZ hands a socket whose every read is one notification. Falls back to
    /// StartNotify when BlueZ refuses (another client holds it, or not supported).
    private func acquireNotify(_ path: String, _ service: SensorService, _ a: Int, then: @escaping () -> Void) {
        guard let bus else { fail("system bus closed", attempt: a); return }
        bus.call(.methodCall(destination: Self.bluez, path: path, interface: "org.bluez.GattCharacteristic1", member: "AcquireNotify",
                             body: [.properties([])])) { [weak self] r in
            guard let self else { return }
            guard a == self.attempt else {
                if case .success(let reply) = r { for fd in reply.fds { Glibc.close(fd) } }
                return
            }
            guard case .success(let reply) = r, let fd = reply.fd(at: 0) else {
                if case .success(let reply) = r { for fd in reply.fds { Glibc.close(fd) } }
                self.startNotify(path, service, a, then: then)
                return
            }
            for other in reply.fds where other != fd { Glibc.close(other) }
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            let token = self.loop.watch(fd, mode: .batched) { [weak self] _ in self?.readNotifications(fd, service, a) }
            self.notifySockets.append((fd, token))
            then()
        }
    }

    /// Reads every notification the socket holds (one per read; batched, several), then
    /// measures each, dated as the loop estimates its arrival.
    private func readNotifications(_ fd: Int32, _ service: SensorService, _ a: Int) {
        var buf = [UInt8](repeating: 0, count: 517)
        var values: [[UInt8]] = []
        var closed = false
        while true {
            let n = buf.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { values.append(Array(buf[0..<n])); continue }
            if n < 0 && errno == EINTR { continue }
            closed = !(n < 0 && errno == EAGAIN)
            break
        }
        let ages = loop.arrivalAges(count: values.count)
        for (v, age) in zip(values, ages) {
            guard a == attempt, notifySockets.contains(where: { $0.fd == fd }) else { return }
            measured(v, service, age: age)
        }
        if closed { fail("notification socket closed", attempt: a) }
    }

    private func closeNotifySockets() {
        for s in notifySockets {
            loop.unwatch(s.token)
            Glibc.close(s.fd)
        }
        notifySockets = []
    }

    private func readDetail(_ path: String, _ a: Int, _ then: @escaping ([UInt8]) -> Void) {
        guard let bus else { return }
        bus.call(.methodCall(destination: Self.bluez, path: path, interface: "org.bluez.GattCharacteristic1", member: "ReadValue",
                             body: [.properties([])])) { [weak self] r in
            guard let self, a == self.attempt, case .success(let reply) = r, let bytes = reply.body.first?.byteArray else { return }
            then(bytes)  // a strap that refuses the read simply has no detail shown
        }
    }

    /// A notification that arrived about `age` seconds ago (`WatchMode.batched`).
    private func measured(_ value: [UInt8], _ service: SensorService, age: Double) {
        guard let m = service.parse(value) else { badMeasurements += 1; return }
        perform(machine.measured(m, now: clock.now() - age), age: age)
    }

    private func updateBattery(_ level: Int?) {
        guard let level, var info = machine.phase.info else { return }
        info.battery = level
        machine.updated(info)
    }

    private func updateLocation(_ location: BodySensorLocation?) {
        guard let location, var info = machine.phase.info else { return }
        info.location = location
        machine.updated(info)
    }

    // MARK: - Status

    func json(now: Double) -> JSON {
        var r = SensorReply(kind: config.kind, address: device?.address ?? address, state: machine.phase.name)
        let info = machine.phase.info
        r.name = info?.name
        r.battery = info?.battery
        r.location = info?.location?.label
        r.services = (info?.services ?? []).map(\.rawValue)
        r.wheelCircumferenceMm = Int((config.wheelCircumference * 1000).rounded())
        r.since = machine.phase.since
        r.problem = machine.phase.problem(now: now)
        r.badMeasurements = badMeasurements
        return r.json()
    }
}
