import WorkoutCore

/// The tests' seeded generator is the core's SplitMix64, so randomized tests repeat exactly.
typealias SeededRandom = SplitMix64
