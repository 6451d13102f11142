import WorkoutCore

/// Where the loop's thread stands with `CPUAffinity`: only the thread that serves the loop
/// reports (a test builds and starts the daemon on one thread and serves it on another).
enum LoopCPUs {
    case notServing
    /// Serving, with what it last reported.
    case serving(CPUPartition.Load)
}

extension Daemon {
    /// As `serve` begins, on the loop's thread.
    func loopStartsServing() { reportCPULoad(currentCPULoad) }

    /// On the loop, after the recording service's state changed: reports a workout that began
    /// or ended (nothing else: `changed` comes with every status update).
    func workoutMayHaveChanged() {
        guard case .serving(let last) = loopCPUs, last != currentCPULoad else { return }
        reportCPULoad(currentCPULoad)
    }

    /// As `serve` ends: the loop's thread and the bulk threads get every CPU back.
    func loopEndsServing() {
        guard case .serving = loopCPUs else { return }
        reportCPULoad(.noWorkout)
        loopCPUs = .notServing
    }

    private var currentCPULoad: CPUPartition.Load { recording.hasWorkoutInProgress ? .workoutInProgress : .noWorkout }

    private func reportCPULoad(_ load: CPUPartition.Load) {
        loopCPUs = .serving(load)
        if let change = CPUAffinity.shared.loopReports(load) { log(CPUPartitionLogEvent.changed(change)) }
    }
}
