/// Windowed speed: over at least `window` seconds, inside one track segment. Keeps the time and
/// cumulative distance of every accepted point (one array of pairs: one append per point,
/// amortised O(1)).
struct SpeedWindow: Sendable {
    let window: Double
    private var points: [(time: Double, distance: Double)] = []
    /// The oldest point still inside the window.
    private var pointer = 0
    /// Index of the first point of the current segment.
    private var segmentStart = 0
    /// The highest windowed speed seen.
    private(set) var maxSpeed = 0.0

    init(window: Double) { self.window = window }

    /// Room for `n` more points.
    mutating func reserveCapacity(_ n: Int) {
        points.reserveCapacity(points.count + n)
    }

    /// The next point starts a new segment: speeds never span two.
    mutating func startSegment() { segmentStart = points.count }

    /// Adds an accepted point (time, cumulative distance); returns the speed over the window
    /// ending there, once the segment spans the window.
    mutating func add(time t: Double, distance: Double) -> Double? {
        points.append((t, distance))
        let j = points.count - 1
        if pointer < segmentStart { pointer = segmentStart }
        while pointer + 1 < j && points[pointer + 1].time <= t - window { pointer += 1 }
        guard pointer < j && points[pointer].time <= t - window else { return nil }
        let v = (distance - points[pointer].distance) / (t - points[pointer].time)
        maxSpeed = max(maxSpeed, v)
        return v
    }

    /// The current speed: from the window's oldest point to `lastEvidence` (the last fix showing
    /// a position, moving or not), nil until the segment spans the window.
    func current(distance: Double, lastEvidence: Double) -> Double? {
        guard let j = points.indices.last, pointer < j, pointer >= segmentStart else { return nil }
        let span = lastEvidence - points[pointer].time
        return span >= window ? (distance - points[pointer].distance) / span : nil
    }
}
