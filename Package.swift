// swift-tools-version:6.0
import PackageDescription

/// workoutd: a workout-tracking daemon. No package dependencies, by design.
/// WorkoutCore is pure (no I/O, no clock, no Foundation); WorkoutDaemon is the shell around it.
/// WorkoutSystem is the small piece of the shell that workoutctl shares with the daemon (files,
/// socket addresses, the runtime-directory rule); it depends on nothing but Glibc.
/// CI's build (.ci/run sets WORKOUTD_CORE_WMO=1 and `--use-integrated-swift-driver`) compiles
/// each module whole (`wholeModule`): type-checked once, not once per batch job. For the -O core:
/// `-disable-cmo` lets the driver emit its module in a job of its own, so the modules importing
/// it build beside its one long job; `-num-threads 1` keeps one object file per source file, as
/// the build plan and test discovery expect; `-disable-llvm-optzns` skips LLVM's optimizer (the
/// SIL optimizer's inlining and specialization, which the tests' speed comes from, still run);
/// `-gline-tables-only` keeps files and lines for backtraces. docs/testing.md has the figures.
/// Plain `swift build`/`swift test` stay in batch mode with full debug info: incremental builds
/// recompile per file.
let ciWholeModule = Context.environment["WORKOUTD_CORE_WMO"] == "1"
let coreWholeModule = ciWholeModule
    ? ["-wmo", "-num-threads", "1", "-disable-cmo", "-Xfrontend", "-disable-llvm-optzns", "-Xfrontend", "-gline-tables-only"] : []
let wholeModule: [SwiftSetting] = ciWholeModule ? [.unsafeFlags(["-wmo", "-num-threads", "1"], .when(configuration: .debug))] : []

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
        .target(name: "WorkoutSystem", swiftSettings: wholeModule),
        .target(name: "WorkoutDaemon", dependencies: ["WorkoutCore", "WorkoutSystem"], swiftSettings: wholeModule),
        .target(name: "WorkoutClient", dependencies: ["WorkoutCore", "WorkoutSystem"], swiftSettings: wholeModule),
        .executableTarget(name: "workoutd", dependencies: ["WorkoutDaemon"]),
        .executableTarget(name: "workoutctl", dependencies: ["WorkoutClient"]),
        .executableTarget(name: "workoutbench", dependencies: ["WorkoutCore", "WorkoutDaemon", "WorkoutSystem"], swiftSettings: wholeModule),
        // What tests need beyond a bare clone, and every skip's reason (docs/testing.md).
        // Sets how many test cases a plain `swift test` runs at once (16, not Swift Testing's
        // 2 x cores) unless the environment already says: Tests/TestRunWidth/TestRunWidth.c.
        .target(name: "TestRunWidth", path: "Tests/TestRunWidth"),
        .target(name: "TestRequirements", dependencies: ["TestRunWidth"], path: "Tests/TestRequirements", swiftSettings: wholeModule),
        // The Python oracles beside the tests that run them are read by path, not built.
        .testTarget(name: "WorkoutCoreTests", dependencies: ["WorkoutCore", "TestRequirements"],
                    exclude: ["Habits/habit_reference.py", "Plans/fit_workout.py", "Codecs/FIT/fit_power.py", "Codecs/FIT/fit_reference.py", "Codecs/FIT/fit_heart_rate.py", "Codecs/device_reference.py"],
                    swiftSettings: wholeModule),
        .testTarget(name: "WorkoutDaemonTests", dependencies: ["WorkoutDaemon", "WorkoutClient", "WorkoutSystem", "TestRequirements"], swiftSettings: wholeModule),
        .testTarget(name: "WorkoutClientTests", dependencies: ["WorkoutClient", "WorkoutSystem", "TestRequirements"], swiftSettings: wholeModule),
        .testTarget(name: "IntegrationTests", dependencies: ["WorkoutCore", "WorkoutDaemon", "WorkoutClient", "WorkoutSystem", "TestRequirements", "workoutd", "workoutctl"],
                    exclude: ["Web/cdp_pages.py", "Web/tile_server.py"], swiftSettings: wholeModule),
    ],
    swiftLanguageModes: [.v6]
)
