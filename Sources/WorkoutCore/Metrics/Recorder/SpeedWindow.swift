/// Windowed speed: over at least `window` seconds, inside one track segment. Keeps the time and
/// cumulative distance of every accepted point (two arrays of Double, amortised O(1) per point).
struct SpeedWindow: Sendable {
    let window: Double
    private var times: [Double] = []
    private var distances: [Double] = []
    /// The oldest point still inside the window.
    private var pointer = 0
    /// Index of the first point of the current segment.
    private var segmentStart = 0
    /// The highest windowed speed seen.
    private(set) var maxSpeed = 0.0

    init(window: Double) { self.window = window }

    /// Room for `n` more points.
    mutating func reserveCapacity(_ n: Int) {
        times.reserveCapacity(times.count + n)
        distances.reserveCapacity(distances.count + n)
    }

    /// The next point starts a new segment: speeds never span two.
    mutating func startSegment() { segmentStart = times.count }

    /// Adds an accepted point (time, cumulative distance); returns the speed over the window
    /// ending there, once the segment spans the window.
    mutating func add(time t: Double, distance: Double) -> Double? {
        times.append(t)
        distances.append(distance)
        let j = times.count - 1
        if pointer < segmentStart { pointer = segmentStart }
        while pointer + 1 < j && times[pointer + 1] <= t - window { pointer += 1 }
        guard pointer < j && times[pointer] <= t - window else { return nil }
        let v = (distance - distances[pointer]) / (t - times[pointer])
        maxSpeed = max(maxSpeed, v)
        return v
    }

    /// The current speed: from the window's oldest point to `lastEvidence` (the last fix showing
    /// a position, moving or not), nil until the segment spans the window.
    func current(distance: Double, lastEvidence: Double) -> Double? {
        guard let j = times.indices.last, pointer < j, pointer >= segmentStart else { return nil }
        let span = lastEvidence - times[pointer]
        return span >= window ? (distance - distances[pointer]) / span : nil
    }
}
