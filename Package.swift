// swift-tools-version:6.0
import PackageDescription

/// workoutd: a workout-tracking daemon. No package dependencies, by design.
/// WorkoutCore is pure (no I/O, no clock, no Foundation); WorkoutDaemon is the shell around it.
/// WorkoutSystem is the small piece of the shell that workoutctl shares with the daemon (files,
/// socket addresses, the runtime-directory rule); it depends on nothing but Glibc.
/// CI's build (.ci/run: WORKOUTD_CORE_WMO=1, with `--use-integrated-swift-driver`) compiles the
/// -O core as one whole module: ~265 s of CPU instead of ~366 s in batch jobs. `-disable-cmo`
/// lets the driver emit the module in a job of its own (cross-module optimization needs the
/// optimizer's module; the -Onone clients never use it), so the modules that import the core
/// build beside its one long job; `-num-threads 1` keeps one object file per source file, as
/// the build plan expects. Plain `swift build`/`swift test` stay in batch mode.
let coreWholeModule = Context.environment["WORKOUTD_CORE_WMO"] == "1" ? ["-wmo", "-num-threads", "1", "-disable-cmo"] : []

let package = Package(
    name: "workoutd",
    products: [
        .executable(name: "workoutd", targets: ["workoutd"]),
        .executable(name: "workoutctl", targets: ["workoutctl"]),
        .executable(name: "workoutbench", targets: ["workoutbench"]),
    ],
    targets: [
        // The pure core is compiled with optimization in debug builds too (-assert-config Debug
        // keeps assert() and precondition() checking; -enable-testing still makes @testable
        // import work): the tests and the debug daemon they start spend most of their CPU
        // decoding, measuring and encoding here, 10x slower at -Onone.
        .target(name: "WorkoutCore",
                swiftSettings: [.unsafeFlags(["-O", "-assert-config", "Debug"] + coreWholeModule, .when(configuration: .debug))],
                linkerSettings: [.linkedLibrary("m")]),
        .target(name: "WorkoutSystem"),
        .target(name: "WorkoutDaemon", dependencies: ["WorkoutCore", "WorkoutSystem"]),
        .target(name: "WorkoutClient", dependencies: ["WorkoutCore", "WorkoutSystem"]),
        .executableTarget(name: "workoutd", dependencies: ["WorkoutDaemon"]),
        .executableTarget(name: "workoutctl", dependencies: ["WorkoutClient"]),
        .executableTarget(name: "workoutbench", dependencies: ["WorkoutCore", "WorkoutDaemon", "WorkoutSystem"]),
        .testTarget(name: "WorkoutCoreTests", dependencies: ["WorkoutCore"]),
        .testTarget(name: "WorkoutDaemonTests", dependencies: ["WorkoutDaemon", "WorkoutClient", "WorkoutSystem"]),
        .testTarget(name: "WorkoutClientTests", dependencies: ["WorkoutClient", "WorkoutSystem"]),
        .testTarget(name: "IntegrationTests", dependencies: ["WorkoutCore", "WorkoutDaemon", "WorkoutClient", "WorkoutSystem", "workoutd", "workoutctl"]),
    ],
    swiftLanguageModes: [.v6]
)
