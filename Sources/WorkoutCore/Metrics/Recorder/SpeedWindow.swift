/// Windowed speed: over at least `window` seconds, inside one track segment. Keeps the time,
/// cumulative distance and position of the accepted points still inside the window (one append
/// per point, older points dropped in bulk: amortised O(1)).
///
/// Two speeds end at each point once the segment spans the window: the **mean** over the window
/// (distance / time: current speed, the too-fast check) and the **sustained** speed, the
/// time-weighted median of the steps inside twice the window (the speed held for at least one
/// window's time; 0 until the segment spans it), which sets the maximum speed. A GPS glitch (a fix thrown 170 m out and back) adds two huge
/// steps to a few windows' means, 120 km/h on a bike ride, but never holds half a window.
/// Where the points have positions, the sustained speed is also at most the straight line from
/// the window's first position to its last over its time: a receiver that wanders off for
/// several seconds and comes back (a watch's 30 m south and 49 m north in 4 s, 4 of 5 steps
/// at 48-109 km/h) gets nowhere, while a real sprint covers its ground.
struct SpeedWindow: Sendable {
    let window: Double
    /// Time, cumulative distance, the position and the receiver's own (Doppler) speed of each
    /// point (NaN for none).
    private var points: [(time: Double, distance: Double, latitude: Double, longitude: Double, speed: Double)] = []
    /// The oldest point still inside the window, and inside the sustained speed's (twice as long).
    private var pointer = 0
    private var heldPointer = 0
    /// Index of the first point of the current segment.
    private var segmentStart = 0
    /// The highest sustained speed seen.
    private(set) var maxSpeed = 0.0
    /// The steps of the sustained speed's range, sorted as it slides: from the positions'
    /// distances, and from the receiver's own speeds.
    private var stepMedian = SlidingMedian()
    private var receiverMedian = SlidingMedian()

    init(window: Double) { self.window = window }

    /// Room for `n` more points, up to what a window keeps (older points are dropped:
    /// reserving for all of them would keep their memory, a long import's).
    mutating func reserveCapacity(_ n: Int) {
        points.reserveCapacity(points.count + min(n, 1 << 13))
    }

    /// The next point starts a new segment: speeds never span two.
    mutating func startSegment() { segmentStart = points.count }

    /// Adds an accepted point (time, cumulative distance); returns the mean and the sustained
    /// speed over the window ending there, once the segment spans the window.
    mutating func add(time t: Double, distance: Double, latitude: Double = .nan, longitude: Double = .nan,
                      receiverSpeed: Double? = nil) -> (mean: Double, sustained: Double)? {
        points.append((t, distance, latitude, longitude, receiverSpeed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? .nan))
        let j = points.count - 1
        if pointer < segmentStart { pointer = segmentStart }
        while pointer + 1 < j && points[pointer + 1].time <= t - window { pointer += 1 }
        guard pointer < j && points[pointer].time <= t - window else { return nil }
        let v = (distance - points[pointer].distance) / (t - points[pointer].time)
        // The sustained speed looks back twice as far (10 s by default), 0 until it can.
        if heldPointer < segmentStart { heldPointer = segmentStart }
        while heldPointer + 1 < j && points[heldPointer + 1].time <= t - 2 * window { heldPointer += 1 }
        var held = 0.0
        if heldPointer < j && points[heldPointer].time <= t - 2 * window {
            // The window's seconds, added once for both medians (each added them itself).
            let seconds = secondsStepped(from: heldPointer, to: j)
            held = sustained(from: heldPointer, to: j, seconds: seconds)
            let a = points[heldPointer], b = points[j]
            if a.latitude.isFinite, b.latitude.isFinite, a.longitude.isFinite, b.longitude.isFinite {
                let chord = Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
                held = min(held, chord / (t - a.time))
            }
            if let doppler = receiverSustained(from: heldPointer, to: j, seconds: seconds) { held = min(held, doppler) }
            maxSpeed = max(maxSpeed, held)
        }
        // Points older than both windows are never read again: dropped in bulk (amortised
        // O(1)), so a day-long workout keeps a window's worth, not every point.
        let oldest = min(pointer, heldPointer)
        if oldest >= 4096, oldest >= segmentStart, 2 * oldest >= points.count {
            points.removeFirst(oldest)
            pointer -= oldest
            heldPointer -= oldest
            stepMedian.shift(by: oldest)
            receiverMedian.shift(by: oldest)
            segmentStart = 0
        }
        return (v, held)
    }

    /// The time-weighted median of the receiver's own speeds over points `i+1...j` (each held
    /// from the point before; `seconds`: `secondsStepped`), nil unless every one of them has
    /// one. A receiver's Doppler speed is accurate where its positions are not: a watch's
    /// positions read 17 km/h over 10 s where its speed said 14.
    private mutating func receiverSustained(from i: Int, to j: Int, seconds: Double) -> Double? {
        let points = self.points  // no copy: read only while the median moves
        receiverMedian.move(from: i, to: j) { k in
            guard points[k].speed.isFinite else { return .missing }
            let dt = points[k].time - points[k - 1].time
            return dt > 0 ? .step(speed: points[k].speed, seconds: dt) : .none
        }
        guard receiverMedian.missing == 0 else { return nil }
        return receiverMedian.median(total: seconds)
    }

    /// The time-weighted median speed of the steps between points `i` and `j`, whose seconds
    /// (`secondsStepped`) are `total`.
    private mutating func sustained(from i: Int, to j: Int, seconds total: Double) -> Double {
        if j == i + 1 { return (points[j].distance - points[i].distance) / (points[j].time - points[i].time) }
        let points = self.points  // no copy: read only while the median moves
        stepMedian.move(from: i, to: j) { k in
            let dt = points[k].time - points[k - 1].time
            guard dt > 0 else { return .none }
            let v = (points[k].distance - points[k - 1].distance) / dt
            return v.isFinite ? .step(speed: v, seconds: dt) : .missing
        }
        guard stepMedian.missing == 0 else {
            // A speed that is not a number (a distance that is not): the steps as they come.
            var steps: [(speed: Double, seconds: Double)] = []
            for k in (i + 1)...j {
                let dt = points[k].time - points[k - 1].time
                if dt > 0 { steps.append(((points[k].distance - points[k - 1].distance) / dt, dt)) }
            }
            return SlidingMedian.median(of: steps, total: total) ?? steps.sorted { $0.speed < $1.speed }.last?.speed ?? 0
        }
        return stepMedian.median(total: total) ?? stepMedian.fastest ?? 0
    }

    /// The seconds of the steps between points `i` and `j`, added in point order (as the
    /// medians' halves have always been computed: the same rounding).
    private func secondsStepped(from i: Int, to j: Int) -> Double {
        var total = 0.0
        for k in (i + 1)...j {
            let dt = points[k].time - points[k - 1].time
            if dt > 0 { total += dt }
        }
        return total
    }

    /// The current speed: from the window's oldest point to `lastEvidence` (the last fix showing
    /// a position, moving or not), nil until the segment spans the window.
    func current(distance: Double, lastEvidence: Double) -> Double? {
        guard let j = points.indices.last, pointer < j, pointer >= segmentStart else { return nil }
        let span = lastEvidence - points[pointer].time
        return span >= window ? (distance - points[pointer].distance) / span : nil
    }
}
