// swift-tools-version:6.0
import PackageDescription

/// workoutd: a workout-tracking daemon. No package dependencies, by design.
/// WorkoutCore is pure (no I/O, no clock, no Foundation); WorkoutDaemon is the shell around it.
let package = Package(
    name: "workoutd",
    products: [
        .executable(name: "workoutd", targets: ["workoutd"]),
        .executable(name: "workoutctl", targets: ["workoutctl"]),
        .executable(name: "workoutbench", targets: ["workoutbench"]),
    ],
    targets: [
        .target(name: "WorkoutCore", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "WorkoutDaemon", dependencies: ["WorkoutCore"]),
        .target(name: "WorkoutClient", dependencies: ["WorkoutCore"]),
        .executableTarget(name: "workoutd", dependencies: ["WorkoutDaemon"]),
        .executableTarget(name: "workoutctl", dependencies: ["WorkoutClient"]),
        .executableTarget(name: "workoutbench", dependencies: ["WorkoutCore", "WorkoutDaemon"]),
        .testTarget(name: "WorkoutCoreTests", dependencies: ["WorkoutCore"]),
        .testTarget(name: "WorkoutDaemonTests", dependencies: ["WorkoutDaemon", "WorkoutClient"]),
        .testTarget(name: "WorkoutClientTests", dependencies: ["WorkoutClient"]),
        .testTarget(name: "IntegrationTests", dependencies: ["WorkoutCore", "WorkoutDaemon", "WorkoutClient", "workoutd", "workoutctl"]),
    ],
    swiftLanguageModes: [.v6]
)
