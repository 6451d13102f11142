import Foundation
import Testing
@testable import WorkoutClient
import WorkoutCore

/// Regression: completion lacked edit, totals, delete, undelete, `fit` and `.gz`; the man page
/// and docs/workoutctl.md listed `export --format gpx|tcx|json` without fit. Every command of
/// `workoutctl --help` and every export format is in all three.
struct CommandDocsTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    func text(_ path: String) throws -> String { try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8) }

    @Test func completionOffersEveryCommandFormatAndFile() throws {
        let bash = try text("completions/workoutctl.bash")
        let line = try #require(bash.split(separator: "\n").firstIndex { $0.contains("local commands=") })
        let lines = bash.split(separator: "\n")
        let commands = (lines[line] + " " + lines[line + 1]).split(whereSeparator: { $0 == " " || $0 == "\"" || $0 == "=" }).map(String.init)
        for c in CommandHelp.all { #expect(commands.contains(c.name), "completion lacks \(c.name)") }
        #expect(bash.contains("gpx tcx json fit"))
        #expect(bash.contains("fit|FIT") && bash.contains("gz|GZ"))
        #expect(bash.contains("--title --notes --gear --effort"))
    }

    @Test func manPageAndDocsListEveryCommandAndFormat() throws {
        let man = try text("man/workoutctl.1"), doc = try text("docs/workoutctl.md")
        for c in CommandHelp.all where !["pause", "resume", "lap"].contains(c.name) {
            #expect(man.contains(c.name), "man page lacks \(c.name)")
            #expect(doc.contains("| `\(c.name)"), "docs/workoutctl.md lacks \(c.name)")
        }
        for f in ExportFormat.allCases {
            #expect(man.contains(f.rawValue), "man page lacks --format \(f.rawValue)")
            #expect(doc.contains("gpx\\|tcx\\|json\\|fit"))
        }
        #expect(CommandHelp.named("export")?.synopsis.contains("gpx|tcx|json|fit") == true)
    }
}
