import Foundation
import Testing
@testable import WorkoutDaemon

/// Issue 44: the man pages lagged `--help`. Every option of `workoutd --help` is in
/// man/workoutd.1's OPTIONS section (workoutctl's: WorkoutClientTests.CommandDocsTests).
struct DaemonCommandLineTests {
    @Test func everyOptionOfHelpIsInTheManPage() throws {
        var root = URL(fileURLWithPath: #filePath)
        while root.path != "/", !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let man = try String(contentsOf: root.appendingPathComponent("man/workoutd.1"), encoding: .utf8)
        let section = man.components(separatedBy: ".SH OPTIONS").dropFirst().first?.components(separatedBy: ".SH ").first ?? ""
        let options = section.replacingOccurrences(of: "\\-", with: "-")
        let usage = DaemonCommandLine.usage.split(whereSeparator: { " []\n".contains($0) }).filter { $0.hasPrefix("--") }
        #expect(!usage.isEmpty)
        let missing = usage.filter { !options.contains($0) }
        #expect(missing.isEmpty, "man/workoutd.1's OPTIONS section lacks \(missing.joined(separator: ", ")) (workoutd --help lists them)")
    }
}
