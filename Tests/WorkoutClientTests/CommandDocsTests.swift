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

    // MARK: - --help against the man page and the completion (issue 44)

    /// The man page's COMMANDS section, one entry per command: the text from its `.TP` tag line
    /// to the next command's, with font escapes removed.
    static func manEntries(_ man: String) -> [String: String] {
        let lines = man.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let from = lines.firstIndex(of: ".SH COMMANDS") else { return [:] }
        let to = lines[(from + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        var entries: [String: String] = [:]
        var current: String?
        for (i, line) in lines[from..<to].enumerated() {
            let previous = i > 0 ? lines[from + i - 1] : ""
            let words = line.split(separator: " ")
            if previous == ".TP", words.count > 1, let name = Optional(String(words[1])), CommandHelp.named(name) != nil, line.hasPrefix(".B") {
                current = name
            }
            if let current { entries[current, default: ""] += plain(line) + "\n" }
        }
        return entries
    }

    /// Roff text without font escapes, `\-` as `-`.
    static func plain(_ roff: String) -> String {
        var s = roff.replacingOccurrences(of: "\\-", with: "-")
        for escape in ["\\fB", "\\fI", "\\fR", "\\fP"] { s = s.replacingOccurrences(of: escape, with: "") }
        return s
    }

    /// The completion's branch for each command: the text of `name)` (or `a|name)`) up to `;;`.
    static func completionBranches(_ bash: String) -> [String: String] {
        var branches: [String: String] = [:]
        guard let start = bash.range(of: "case $cmd in") else { return [:] }
        var current: [String] = []
        for line in bash[start.upperBound...].split(separator: "\n").map(String.init) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasSuffix(")"), !t.contains(" "), !t.hasPrefix("(") {
                current = t.dropLast().split(separator: "|").map(String.init)
            }
            for c in current { branches[c, default: ""] += line + "\n" }
            if t.hasSuffix(";;") { current = [] }
        }
        return branches
    }

    @Test func everyCommandAndOptionOfHelpIsInTheManPage() throws {
        let man = try text("man/workoutctl.1")
        let entries = Self.manEntries(man)
        var missing: [String] = []
        for c in CommandHelp.all {
            guard let entry = entries[c.name] else {
                missing.append("man/workoutctl.1 has no entry for `\(c.name)` (add `.TP` then `.B \(c.name)` under .SH COMMANDS; --help: \(c.synopsis))")
                continue
            }
            let lacking = c.options.filter { !entry.contains($0) }
            if !lacking.isEmpty {
                missing.append("man/workoutctl.1's `\(c.name)` lacks \(lacking.joined(separator: ", ")) (--help: \(c.synopsis))")
            }
        }
        let options = Self.plain(man.components(separatedBy: ".SH OPTIONS").dropFirst().first?.components(separatedBy: ".SH ").first ?? "")
        for o in HelpText.globalOptions where !options.contains(o) {
            missing.append("man/workoutctl.1's OPTIONS section lacks \(o) (workoutctl --help lists it)")
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    @Test func everyCommandAndOptionOfHelpIsCompleted() throws {
        let bash = try text("completions/workoutctl.bash")
        let branches = Self.completionBranches(bash)
        var missing: [String] = []
        for c in CommandHelp.all where !c.options.isEmpty {
            guard let branch = branches[c.name] else {
                missing.append("completions/workoutctl.bash has no `\(c.name))` branch offering \(c.options.joined(separator: " "))")
                continue
            }
            let lacking = c.options.filter { o in !branch.contains(" \(o) ") && !branch.contains("\"\(o) ") && !branch.contains(" \(o)\"") && !branch.contains("\"\(o)\"") }
            if !lacking.isEmpty {
                missing.append("completions/workoutctl.bash's `\(c.name))` branch does not offer \(lacking.joined(separator: ", ")) (--help: \(c.synopsis))")
            }
        }
        let global = try #require(bash.split(separator: "\n").first { $0.contains("compgen -W \"--socket") })
        for o in HelpText.globalOptions where !global.contains(o) {
            missing.append("completions/workoutctl.bash's global options lack \(o)")
        }
        #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
    }

    /// Every option a synopsis names is one the parser takes (so the docs check the real set).
    @Test func everyOptionOfHelpIsParsed() {
        for c in CommandHelp.all {
            for o in c.options {
                if case .failure(let e) = ArgumentParser.parse([c.name, o], cwd: "/"), e.message.contains("unknown option") {
                    Issue.record("--help names \(o) for \(c.name) but workoutctl refuses it: \(e.message)")
                }
            }
        }
    }

    /// Regression: `.BR defaultActivity . Each file is reported as` rendered as
    /// "defaultActivity.Eachfileisreportedas": the alternating-font macros join their arguments
    /// without spaces, so two plain words in a row glue together.
    @Test func manPagesAlternatingFontsGlueNoWords() throws {
        for page in ["man/workoutctl.1", "man/workoutd.1"] {
            for line in try text(page).split(separator: "\n") {
                let macro = line.prefix { $0 != " " }
                guard ["BR", "RB", "BI", "IB", "IR", "RI"].contains(macro.dropFirst()), macro.hasPrefix(".") else { continue }
                let args = Self.roffArguments(String(line.dropFirst(macro.count)))
                for (a, b) in zip(args, args.dropFirst()) where a.last?.isLetter == true && b.first?.isLetter == true {
                    Issue.record("\(page): `\(line)` renders \"\(a)\(b)\" as one word")
                }
            }
        }
    }

    /// A roff request's arguments: space-separated, or in double quotes.
    static func roffArguments(_ s: String) -> [String] {
        var args: [String] = [], current = "", quoted = false, started = false
        for ch in s {
            if ch == "\"" { quoted.toggle(); started = true; continue }
            if ch == " ", !quoted {
                if started { args.append(current) }
                current = ""; started = false; continue
            }
            current.append(ch); started = true
        }
        if started { args.append(current) }
        return args
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
