import Testing
import TestRequirements

/// The reliability suite (issue 8; docs/reliability.md). Every suite in it is nested here so that
/// `.serialized` runs them one test at a time: their timing and memory figures must not measure
/// each other. FloodTests and LoadTests (the timed, heavy ones) run only with
/// WORKOUTD_RELIABILITY=1, which .ci/reliability.sh sets when it runs this suite on its own; in a
/// plain `swift test` they would share 2 cores with every other suite running in parallel.
/// Off the pool (`.offPool`, one test at a time): its tests block their thread on purpose, as a
/// client does (a reply read while the daemon is out of descriptors, held by a slow disk or a
/// full stderr, status round trips timed back to back); on the pool each would hold one of its
/// 2 threads for seconds.
@Suite(.serialized, .offPool) struct ReliabilitySuite {
    /// The timed suites: run by .ci/reliability.sh, alone on the machine.
    static let heavy = Requirement.optIn(variable: "WORKOUTD_RELIABILITY", why: "timed load, run alone on the machine by .ci/reliability.sh",
                                         command: "bash .ci/reliability.sh")
}
