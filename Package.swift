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
/// the build plan (and test discovery) expects. The same switch compiles the -Onone modules
/// whole-module too (`wholeModule`): each is type-checked once, not once per batch job; fresh
/// clones, CPU of the whole build: 738 s in batch jobs, 693 s this way (docs/testing.md: the
/// smaller modules gain; WorkoutCoreTests does not, its type checking is per function body).
/// Plain `swift build`/`swift test` stay in batch mode: incremental builds recompile per file.
/// CI's core job also skips LLVM's optimizer (`-disable-llvm-optzns`: the SIL optimizer's
/// inlining and specialization, which the tests' speed comes from, still run) and emits line
/// tables only (`-gline-tables-only`: backtraces keep files and lines; an -O core has few
/// variables to show anyway): core job ~273 -> ~210 s of CPU, the WorkoutCoreTests process
/// +2 to +4 s of CPU, the integration suites within their noise (docs/testing.md). Plain builds
/// keep LLVM's optimizer and full debug info.
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
        .target(name: "TestRequirements", path: "Tests/TestRequirements", swiftSettings: wholeModule),
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
