/// The readings of one device's power, speed/cadence and running services, from their
/// notifications: cumulative wheel and crank counters turned into revolutions, cadence, speed
/// and distance (`RevolutionCounter`), the footpod's total distance into distance covered. Pure;
/// `now` is each notification's arrival on the daemon's clock. Kept across a dropout, so the
/// revolutions a sensor counted while out of range are not lost.
public struct SensorRates: Sendable {
    /// The wheel a speed sensor turns, in metres (`wheelCircumferenceMm` / 1000).
    public let wheelCircumference: Double
    private var powerWheel: RevolutionCounter
    private var powerCrank = RevolutionCounter.crank
    private var cscWheel: RevolutionCounter
    private var cscCrank = RevolutionCounter.crank
    /// The footpod's last total distance (dm) and when its last reading arrived, with its speed.
    private var footpodTotal: UInt32?
    private var footpodLast: (time: Double, speed: Double)?
    /// The trainer's last total distance and reading (its distance without a total).
    private var trainerTotal: Int?
    private var trainerLast: (time: Double, speed: Double?)?

    /// The fastest a footpod's total distance may grow (m/s); faster is a reset, not a run.
    public static let maximumFootSpeed = 12.5
    /// Without a total distance, a footpod's speed is integrated over at most this long (s).
    public static let maximumSpeedHold = 5.0

    public init(wheelCircumference: Double = 2.105) {
        self.wheelCircumference = wheelCircumference
        powerWheel = .wheel(circumference: wheelCircumference)
        cscWheel = .wheel(circumference: wheelCircumference)
    }

    /// The reading of one notification (nil for heart rate, which is not read here).
    public mutating func reading(_ m: SensorMeasurement, at now: Double) -> SensorReading? {
        switch m {
        case .heartRate: return nil
        case .cyclingPower(let p): return power(p, at: now)
        case .cyclingSpeedCadence(let c): return speedCadence(c, at: now)
        case .runningSpeedCadence(let r): return running(r, at: now)
        case .fitnessMachine(let d): return trainer(d, at: now)
        }
    }

    /// A trainer's Indoor Bike Data: power (braking counts as 0), cadence and speed as sent;
    /// distance from its total distance when it sends one (a jump back, or faster than 30 m/s,
    /// is a restart and adds nothing), else the previous speed over the time since the previous
    /// reading (at most `maximumSpeedHold`).
    public mutating func trainer(_ d: IndoorBikeData, at now: Double) -> SensorReading {
        var r = SensorReading(power: d.watts.map { max(0, $0) }, cadence: d.cadence, speed: d.speed)
        let elapsed = trainerLast.map { now - $0.time }
        if let total = d.totalDistance {
            if let before = trainerTotal, let elapsed, elapsed >= 0, total >= before, Double(total - before) <= 30 * max(elapsed, 1) {
                r.distance = Double(total - before)
            } else {
                r.distance = 0
            }
            trainerTotal = total
        } else if let last = trainerLast, let elapsed, elapsed >= 0, let speed = last.speed {
            r.distance = speed * min(elapsed, SensorRates.maximumSpeedHold)
        } else if d.speed != nil {
            r.distance = 0
        }
        trainerLast = (now, d.speed)
        return r
    }

    /// Cycling Power: the instantaneous power (negative values, which the spec allows for a
    /// braking trainer, count as 0), crank cadence and wheel speed and distance when sent.
    public mutating func power(_ m: CyclingPowerMeasurement, at now: Double) -> SensorReading {
        var r = SensorReading(power: max(0, m.watts))
        if let c = m.crank { r.cadence = powerCrank.add(c, at: now).rpm }
        if let w = m.wheel { wheel(powerWheel.add(w, at: now), into: &r) }
        return r
    }

    /// CSC: wheel speed and distance, crank cadence.
    public mutating func speedCadence(_ m: CSCMeasurement, at now: Double) -> SensorReading {
        var r = SensorReading()
        if let w = m.wheel { wheel(cscWheel.add(w, at: now), into: &r) }
        if let c = m.crank { r.cadence = cscCrank.add(c, at: now).rpm }
        return r
    }

    private func wheel(_ s: RevolutionCounter.Step, into r: inout SensorReading) {
        r.distance = Double(s.revolutions) * wheelCircumference
        r.speed = s.rpm.map { $0 / 60 * wheelCircumference }
    }

    /// RSC: speed as sent; cadence in strides per minute (one foot's steps: half the footpod's
    /// steps per minute), as FIT and TCX record a run's cadence; distance from the total distance
    /// when the footpod sends it (wrapping at 2^32 dm; a jump faster than `maximumFootSpeed` is a
    /// reset and adds nothing), else the previous speed over the time since the previous reading.
    public mutating func running(_ m: RSCMeasurement, at now: Double) -> SensorReading {
        var r = SensorReading(cadence: Double(m.cadence) / 2, speed: m.speed)
        let elapsed = footpodLast.map { now - $0.time }
        if let total = m.totalDistanceDecimetres {
            if let before = footpodTotal, let elapsed, elapsed >= 0 {
                let d = Double(total &- before) / 10
                r.distance = d <= SensorRates.maximumFootSpeed * max(elapsed, 1) ? d : 0
            } else {
                r.distance = 0
            }
            footpodTotal = total
        } else if let last = footpodLast, let elapsed, elapsed >= 0 {
            r.distance = last.speed * min(elapsed, SensorRates.maximumSpeedHold)
        } else {
            r.distance = 0
        }
        footpodLast = (now, m.speed)
        return r
    }
}
