/// Where the recorder reports what happened (`RecorderEvent`): an array (live, journal replay),
/// or nowhere (`DiscardedRecorderEvents`: an import or a rebuild reads only the result, and
/// skips appending and clearing an array for every fix).
protocol RecorderEventSink {
    mutating func append(_ event: RecorderEvent)
}

extension Array: RecorderEventSink where Element == RecorderEvent {}

/// A sink that keeps nothing.
struct DiscardedRecorderEvents: RecorderEventSink {
    @inline(__always)
    mutating func append(_ event: RecorderEvent) {}
}
