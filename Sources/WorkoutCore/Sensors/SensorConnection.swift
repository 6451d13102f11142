/// What the shell knows about a connected device.
public struct SensorInfo: Sendable, Equatable {
    /// The device's name (BlueZ `Alias`/`Name`) or address.
    public var name: String
    /// Battery percentage when the device reports it.
    public var battery: Int?
    public var location: BodySensorLocation?
    /// The services it was subscribed to, in `SensorService` order.
    public var services: [SensorService]

    public init(name: String, battery: Int? = nil, location: BodySensorLocation? = nil, services: [SensorService] = [.heartRate]) {
        self.name = name; self.battery = battery; self.location = location; self.services = services
    }

    /// "heart rate, power" for logs and status.
    public var servicesLabel: String { services.map(\.label).joined(separator: ", ") }
}

/// What the shell must do after a `SensorConnection` event.
public enum SensorAction: Sendable, Equatable {
    /// Find the device, connect, wait for its services, subscribe to their measurements.
    case connect
    /// Call `retryDue(now:)` at this time (seconds on the same clock as the events).
    case scheduleRetry(at: Double)
    /// Record this reading in the workout.
    case record(time: Double, bpm: Int, rr: [UInt16])
    /// Record this power, speed/cadence or running reading (its counters already turned into
    /// rates by the connection's `SensorRates`).
    case reading(time: Double, source: SensorSource, SensorReading)
    /// End the workout's heart-rate run here (no contact, strap lost): a gap, never a repeat.
    case gap(at: Double)
    /// End the readings of this source here (the device dropped out or closed).
    case sensorGap(at: Double, source: SensorSource)
    /// Unsubscribe and disconnect (the workout no longer records).
    case disconnect
    /// Log this event.
    case log(SensorLogEvent)
}

/// The connection to one Bluetooth LE sensor (a heart-rate strap, a power meter, a speed and
/// cadence sensor, a footpod, or a device offering several of their services), as a pure
/// machine: the shell (BlueZ client) reports what happened, with the time, and performs the
/// actions returned. Reconnects with backoff (1, 2, 4, 8, 16, 30, 30 ... s) after a failed
/// attempt or a drop; BlueZ itself does not reconnect a sensor that went out of range. Its
/// `SensorRates` turn wheel and crank counters into rates, kept across a drop.
public struct SensorConnection: Sendable {
    public enum Phase: Sendable, Equatable {
        /// No workout records. -> connecting (`open`).
        case closed
        /// An attempt is under way; `attempt` counts the failures before it.
        /// -> connected (`connected`), lost (`failed`), closed (`close`).
        case connecting(since: Double, attempt: Int)
        /// Subscribed, readings arriving (or about to). -> noContact, lost, closed.
        case connected(SensorInfo, since: Double, lastReading: Double?)
        /// Notifications go on but the strap has no skin contact (heart rate only: a device's
        /// other services are still recorded). -> connected, lost, closed.
        case noContact(SensorInfo, since: Double)
        /// Dropped or unreachable; the next attempt is at `retryAt`. -> connecting, closed.
        case lost(reason: String, since: Double, attempt: Int, retryAt: Double)
    }

    public private(set) var phase: Phase = .closed
    private var rates: SensorRates
    /// A connected sensor that sends nothing for this long is treated as lost.
    public static let silenceTimeout = 10.0

    /// The waits before the next attempt after failures (s): `first` after one, doubling with
    /// each failure in a row, at most `longest`. The defaults are the product's: 1, 2, 4, 8, 16,
    /// then 30 s.
    public struct Backoff: Sendable, Equatable {
        public var first: Double
        public var longest: Double

        public init(first: Double = 1, longest: Double = 30) {
            self.first = first
            self.longest = longest
        }

        /// The wait before attempt `n + 1` after `n` failures (n >= 1).
        public func after(failures n: Int) -> Double { min(longest, first * Double(1 << min(max(n - 1, 0), 5))) }
    }

    /// The waits between attempts.
    public let backoff: Backoff

    /// `wheelCircumference` (m): the wheel a speed sensor turns.
    public init(wheelCircumference: Double = 2.105, backoff: Backoff = Backoff()) {
        rates = SensorRates(wheelCircumference: wheelCircumference)
        self.backoff = backoff
    }

    /// The gaps that end every reading of the device at `now`.
    private static func gaps(_ info: SensorInfo, at now: Double) -> [SensorAction] {
        var out: [SensorAction] = []
        for s in info.services {
            if let source = s.source { out.append(.sensorGap(at: now, source: source)) } else { out.append(.gap(at: now)) }
        }
        return out
    }

    /// A workout that uses heart rate started recording (or resumed).
    public mutating func open(now: Double) -> [SensorAction] {
        switch phase {
        case .closed:
            phase = .connecting(since: now, attempt: 0)
            return [.connect, .log(.connecting)]
        case .connecting, .connected, .noContact, .lost:
            return []  // already open: a second open is a no-op
        }
    }

    /// The workout stopped or paused: stop reading.
    public mutating func close(now: Double) -> [SensorAction] {
        switch phase {
        case .closed:
            return []
        case .connecting, .lost:
            phase = .closed
            return [.disconnect, .log(.closed)]
        case .connected(let info, _, _), .noContact(let info, _):
            phase = .closed
            return SensorConnection.gaps(info, at: now) + [.disconnect, .log(.closed)]
        }
    }

    /// Connected and subscribed.
    public mutating func connected(_ info: SensorInfo, now: Double) -> [SensorAction] {
        switch phase {
        case .connecting:
            phase = .connected(info, since: now, lastReading: nil)
            return [.log(.connected(info))]
        case .closed, .connected, .noContact, .lost:
            return []  // a late answer to an attempt that was abandoned: ignored
        }
    }

    /// Battery level or body location read after connecting.
    public mutating func updated(_ info: SensorInfo) {
        switch phase {
        case .connected(_, let since, let last): phase = .connected(info, since: since, lastReading: last)
        case .noContact(_, let since): phase = .noContact(info, since: since)
        case .closed, .connecting, .lost: break
        }
    }

    /// A Heart Rate Measurement notification arrived.
    public mutating func measured(_ m: HeartRateMeasurement, now: Double) -> [SensorAction] {
        measured(.heartRate(m), now: now)
    }

    /// A notification of any service arrived.
    public mutating func measured(_ measurement: SensorMeasurement, now: Double) -> [SensorAction] {
        guard case .heartRate(let m) = measurement else { return bikeOrFoot(measurement, now: now) }
        switch phase {
        case .connected(let info, let since, _):
            if m.isReading {
                phase = .connected(info, since: since, lastReading: now)
                return [.record(time: now, bpm: m.bpm, rr: m.rrIntervals1024)]
            }
            phase = .noContact(info, since: now)
            return [.gap(at: now), .log(.noContact(info))]
        case .noContact(let info, _):
            guard m.isReading else { return [] }
            phase = .connected(info, since: now, lastReading: now)
            return [.log(.contact(info)), .record(time: now, bpm: m.bpm, rr: m.rrIntervals1024)]
        case .closed, .connecting, .lost:
            return []  // a notification racing a close or a drop: dropped
        }
    }

    /// A power, speed/cadence or running notification: recorded in either connected phase (a
    /// lost skin contact concerns heart rate alone), and proof the device is there.
    private mutating func bikeOrFoot(_ m: SensorMeasurement, now: Double) -> [SensorAction] {
        let source: SensorSource
        switch m {
        case .heartRate: return []
        case .cyclingPower: source = .power
        case .cyclingSpeedCadence: source = .csc
        case .runningSpeedCadence: source = .rsc
        case .fitnessMachine: source = .trainer
        }
        switch phase {
        case .connected(let info, let since, _):
            phase = .connected(info, since: since, lastReading: now)
        case .noContact:
            break
        case .closed, .connecting, .lost:
            return []  // a notification racing a close or a drop: dropped
        }
        guard let r = rates.reading(m, at: now), !r.isEmpty else { return [] }
        return [.reading(time: now, source: source, r)]
    }

    /// The attempt failed or the device dropped (disconnected, services gone, silence).
    public mutating func failed(_ reason: String, now: Double) -> [SensorAction] {
        let failures: Int
        var out: [SensorAction] = []
        switch phase {
        case .closed, .lost:
            return []
        case .connecting(_, let attempt):
            failures = attempt + 1
        case .connected(let info, _, _), .noContact(let info, _):
            failures = 1
            out += SensorConnection.gaps(info, at: now)
        }
        let delay = backoff.after(failures: failures)
        phase = .lost(reason: reason, since: now, attempt: failures, retryAt: now + delay)
        out += [.scheduleRetry(at: now + delay), .log(.lost(reason, retryInSeconds: delay))]
        return out
    }

    /// The retry time scheduled by `.scheduleRetry` came.
    public mutating func retryDue(now: Double) -> [SensorAction] {
        switch phase {
        case .lost(_, _, let attempt, let at):
            guard now >= at else { return [.scheduleRetry(at: at)] }
            phase = .connecting(since: now, attempt: attempt)
            return [.connect, .log(.reconnecting(attempt: attempt + 1))]
        case .closed, .connecting, .connected, .noContact:
            return []  // a timer that outlived its phase
        }
    }

    /// About once a second: a connected strap that went silent is treated as lost.
    public mutating func tick(now: Double) -> [SensorAction] {
        switch phase {
        case .connected(_, let since, let last):
            if now - (last ?? since) > SensorConnection.silenceTimeout {
                return failed("no measurement for \(Int(SensorConnection.silenceTimeout)) s", now: now)
            }
            return []
        case .closed, .connecting, .noContact, .lost:
            return []
        }
    }
}

extension SensorConnection.Phase {
    /// The phase's name in `status` (`connecting`, `connected`, `no_contact`, `lost`, `closed`).
    public var name: String {
        switch self {
        case .closed: return "closed"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .noContact: return "no_contact"
        case .lost: return "lost"
        }
    }

    /// The strap, when connected.
    public var info: SensorInfo? {
        switch self {
        case .connected(let i, _, _), .noContact(let i, _): return i
        case .closed, .connecting, .lost: return nil
        }
    }

    /// When the phase began.
    public var since: Double? {
        switch self {
        case .closed: return nil
        case .connecting(let s, _), .connected(_, let s, _), .noContact(_, let s), .lost(_, let s, _, _): return s
        }
    }

    /// The problem in words, with the retry delay, while lost.
    public func problem(now: Double) -> String? {
        switch self {
        case .lost(let reason, _, _, let at):
            return "\(reason); retrying in \(Int(max(0, at - now).rounded(.up))) s"
        case .closed, .connecting, .connected, .noContact:
            return nil
        }
    }
}

/// Log events of the sensor layer.
public enum SensorLogEvent: LogEvent, Sendable, Equatable {
    case connecting
    case connected(SensorInfo)
    case noContact(SensorInfo)
    case contact(SensorInfo)
    case lost(String, retryInSeconds: Double)
    case reconnecting(attempt: Int)
    case closed

    public var name: String {
        switch self {
        case .connecting: return "sensor.connecting"
        case .connected: return "sensor.connected"
        case .noContact: return "sensor.no_contact"
        case .contact: return "sensor.contact"
        case .lost: return "sensor.lost"
        case .reconnecting: return "sensor.reconnecting"
        case .closed: return "sensor.closed"
        }
    }

    public var level: LogLevel {
        switch self {
        case .lost, .noContact: return .warning
        case .connecting, .connected, .contact, .reconnecting, .closed: return .info
        }
    }

    public var message: String {
        switch self {
        case .connecting: return "Sensor: connecting"
        case .connected(let i):
            return "Sensor \(i.name) connected (\(i.servicesLabel))" + (i.battery.map { ", battery \($0) %" } ?? "")
        case .noContact(let i): return "Heart-rate sensor \(i.name): no skin contact"
        case .contact(let i): return "Heart-rate sensor \(i.name): contact again"
        case .lost(let r, let d): return "Sensor lost: \(r); retrying in \(Int(d.rounded(.up))) s"
        case .reconnecting(let n): return "Sensor: reconnecting (attempt \(n))"
        case .closed: return "Sensor closed"
        }
    }

    public var fields: [(String, LogValue)] {
        switch self {
        case .connecting, .closed: return []
        case .connected(let i):
            var f: [(String, LogValue)] = [("sensor", .string(i.name)), ("services", .string(i.services.map(\.rawValue).joined(separator: ",")))]
            if let b = i.battery { f.append(("battery", .int(b))) }
            return f
        case .noContact(let i), .contact(let i):
            var f: [(String, LogValue)] = [("sensor", .string(i.name))]
            if let b = i.battery { f.append(("battery", .int(b))) }
            return f
        case .lost(let r, let d): return [("reason", .string(r)), ("retry_seconds", .double(d, decimals: 0))]
        case .reconnecting(let n): return [("attempt", .int(n))]
        }
    }
}
