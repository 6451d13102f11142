import Foundation
import Synchronization
import Testing

/// What a test needs beyond a bare clone: the shared data beside the checkout, a peer program,
/// a Python module, root, the zone files, or an opt-in. The single source of every skip's
/// reason (docs/testing.md, "Skipped tests"): `@Test(.requires(.program(.gpsd)))` skips with
/// the one true reason and the one command that removes it, on a machine without it; under
/// `CI=true` it runs anyway and fails on what is missing (an opt-in stays off).
public enum Requirement: Sendable {
    /// `../shared/SUBPATH` beside the checkout (captures, tracks, schemas, tools).
    case shared(String)
    /// A program of a Debian package.
    case program(Program)
    /// A module `python3` imports.
    case python(PythonModule)
    /// Running as root (mounting a tmpfs, acting as other users).
    case root
    /// An environment variable a person sets on purpose (timed suites, debugging aids): never
    /// turned on by CI alone.
    case optIn(variable: String, why: String, command: String)

    /// `../shared/data`.
    public static let sharedData = Requirement.shared("data")

    /// Peer programs, where the tests run them from, and the package that brings them.
    public enum Program: String, Sendable {
        case gpsd, dbusDaemon, chromium, syncthing, xmllint, gpsbabel, gzip, prlimit, python3, zoneinfo

        public var path: String {
            switch self {
            case .gpsd: return "/usr/sbin/gpsd"
            case .dbusDaemon: return "/usr/bin/dbus-daemon"
            case .chromium: return "/usr/lib/chromium/chromium"
            case .syncthing: return "/usr/bin/syncthing"
            case .xmllint: return "/usr/bin/xmllint"
            case .gpsbabel: return "/usr/bin/gpsbabel"
            case .gzip: return "/usr/bin/gzip"
            case .prlimit: return "/usr/bin/prlimit"
            case .python3: return "python3"
            case .zoneinfo: return "/usr/share/zoneinfo/Europe/Berlin"
            }
        }

        var package: String {
            switch self {
            case .gpsd: return "gpsd"
            case .dbusDaemon: return "dbus-daemon"
            case .chromium: return "chromium"
            case .syncthing: return "syncthing"
            case .xmllint: return "libxml2-utils"
            case .gpsbabel: return "gpsbabel"
            case .gzip: return "gzip"
            case .prlimit: return "util-linux"
            case .python3: return "python3"
            case .zoneinfo: return "tzdata"
            }
        }

        var name: String {
            switch self {
            case .dbusDaemon: return "dbus-daemon"
            case .zoneinfo: return "the time zone files (/usr/share/zoneinfo)"
            case .gpsd, .chromium, .syncthing, .xmllint, .gpsbabel, .gzip, .prlimit, .python3: return rawValue
            }
        }

        var present: Bool {
            switch self {
            case .python3: return Requirement.onPath("python3")
            case .zoneinfo: return FileManager.default.fileExists(atPath: path)
            case .gpsd, .dbusDaemon, .chromium, .syncthing, .xmllint, .gpsbabel, .gzip, .prlimit:
                return FileManager.default.isExecutableFile(atPath: path)
            }
        }
    }

    /// Python modules the oracles import, and what installs each.
    public enum PythonModule: String, Sendable {
        case garminFitSDK = "garmin_fit_sdk", gpxpy, geographiclib, gi = "gi.repository.Gio", dbus, zoneinfo

        /// Debian's bindings (python3-gi, python3-dbus) live in the system's interpreter, which
        /// the tests and tools using them run (a pyenv python3 first on PATH lacks them); pip's
        /// modules in the `python3` on PATH.
        var interpreter: String {
            switch self {
            case .gi, .dbus: return "/usr/bin/python3"
            case .garminFitSDK, .gpxpy, .geographiclib, .zoneinfo: return "python3"
            }
        }

        var install: String {
            switch self {
            case .garminFitSDK: return "python3 -m pip install garmin-fit-sdk"
            case .gpxpy: return "python3 -m pip install gpxpy"
            case .geographiclib: return "python3 -m pip install geographiclib"
            case .gi: return "sudo apt-get install python3-gi"
            case .dbus: return "sudo apt-get install python3-dbus"
            case .zoneinfo: return "sudo apt-get install python3"
            }
        }
    }

    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The checkout (the folder with Package.swift above this file).
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `../shared` beside the checkout.
    public static let sharedRoot = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// Whether it holds on this machine (CI aside).
    public var isMet: Bool {
        switch self {
        case .shared(let sub): return FileManager.default.fileExists(atPath: Requirement.sharedRoot.appendingPathComponent(sub).path)
        case .program(let p): return p.present
        case .python(let m): return Requirement.imports(m.rawValue, with: m.interpreter)
        case .root: return getuid() == 0
        case .optIn(let variable, _, _): return !["", "0", nil].contains(ProcessInfo.processInfo.environment[variable])
        }
    }

    /// What is missing and the command that brings it (`suite`: the tests' file name, which
    /// names their suite, for a command that runs just them).
    public func missing(suite: String = "SUITE") -> String {
        switch self {
        case .shared(let sub):
            return "needs ../shared/\(sub), the team's shared test data beside this checkout (not in a clone): `ln -s /PATH/TO/shared ../shared`"
        case .program(let p): return "needs \(p.name): `sudo apt-get install \(p.package)`"
        case .python(let m): return "needs the Python module \(m.rawValue): `\(m.install)`"
        case .root: return "needs root (CI runs as root): `sudo -E swift test --skip-build --filter \(suite)`"
        case .optIn(_, let why, let command): return "\(why): `\(command)`"
        }
    }

    /// Whether a test needing `all` runs: every one met, or CI (where a missing one fails the
    /// test), except an opt-in, which only its variable turns on.
    public static func runs(_ all: [Requirement]) -> Bool {
        all.allSatisfy { r in
            switch r {
            case .optIn: return r.isMet
            case .shared, .program, .python, .root: return r.isMet || isCI
            }
        }
    }

    /// The skip's reason: each unmet requirement with its command ("" when all are met).
    /// `fileID` ("IntegrationTests/Reliability/FaultTests.swift") names the suite.
    public static func reason(_ all: [Requirement], fileID: String = "") -> String {
        let file = fileID.split(separator: "/").last.map(String.init) ?? ""
        let suite = file.hasSuffix(".swift") ? String(file.dropLast(6)) : "SUITE"
        return all.filter { !$0.isMet }.map { $0.missing(suite: suite) }.joined(separator: "; ")
    }

    static func onPath(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + name) }
    }

    private static let imported = Mutex<[String: Bool]>([:])

    /// Whether `INTERPRETER -c "import MODULE"` succeeds (asked once per module and process).
    static func imports(_ module: String, with interpreter: String) -> Bool {
        if let known = imported.withLock({ $0[module] }) { return known }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = Python.direct([interpreter, "-c", "import " + module])
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        let ok = (try? p.run()).map { p.waitUntilExit(); return p.terminationStatus == 0 } ?? false
        imported.withLock { $0[module] = ok }
        return ok
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test when everything it needs is here (or under CI); otherwise skips it with
    /// each missing thing and the command that brings it.
    public static func requires(_ needs: Requirement..., fileID: String = #fileID, filePath: String = #filePath,
                                line: Int = #line, column: Int = #column) -> Self {
        .enabled(if: Requirement.runs(needs), Comment(rawValue: Requirement.reason(needs, fileID: fileID)),
                 sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}
