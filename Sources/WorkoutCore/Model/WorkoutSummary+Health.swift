extension WorkoutSummary {
    /// Fixes per second over the time the workout ran with a signal (the recording health line):
    /// the timer's time less `signalLostSeconds`, which holds any suspend. Over the whole span, a
    /// laptop closed for an hour read as a receiver giving "0.00 fixes/s" (issue 27 item 12);
    /// the time without a signal is reported beside it. 0 without fixes.
    public var fixRate: Double {
        guard pointCount > 0 else { return 0 }
        let withSignal = timerSeconds - signalLostSeconds
        let span = withSignal > 0 ? withSignal : max(0, (endedAt ?? startedAt) - startedAt)
        return span > 0 ? Double(pointCount) / span : 0
    }
}
