import Foundation
import Testing
@testable import WorkoutCore

/// The docs say what the config accepts: every key documented in docs/config.md (and the config
/// keys docs/streaks.md names for its settings) decodes, and its documented default is the
/// built-in one.
@Suite struct ConfigDocsTests {
    private func doc(_ name: String) throws -> String {
        try String(contentsOf: SharedData.projectRoot.appendingPathComponent("docs/" + name), encoding: .utf8)
    }

    /// `{"a":{"b":VALUE}}` for the dotted key `a.b`.
    private func json(_ key: String, _ value: String) -> String {
        key.split(separator: ".").reversed().reduce(value) { #"{"\#($1)":\#($0)}"# }
    }

    /// The backticked names in a table row's first cell.
    private func keys(inCell cell: Substring) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// A documented default written as a literal (1, false, null, `metric`, `[]`), else nil.
    private func literal(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "null" || t == "true" || t == "false" || t == "`[]`" || Double(t) != nil { return t.replacingOccurrences(of: "`", with: "") }
        if t.hasPrefix("`"), t.hasSuffix("`"), t.count > 2, !t.dropFirst().dropLast().contains("`") { return "\"\(t.dropFirst().dropLast())\"" }
        return nil
    }

    @Test func everyKeyInConfigDocsDecodesWithItsDefault() throws {
        let text = try doc("config.md")
        let main = try #require(text.components(separatedBy: "### habits").first)
        var checked = 0
        for line in main.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let names = keys(inCell: Substring(cells[1]))
            let defaults = cells[2].components(separatedBy: ", ")
            for (i, key) in names.enumerated() {
                #expect(throws: Never.self, "docs/config.md: \(key)") { try Config.decode(json: json(key, "null")) }
                let d = defaults.count == names.count ? defaults[i] : cells[2]
                if let value = literal(d) {
                    #expect((try? Config.decode(json: json(key, value))) == Config(), "docs/config.md: \(key) default \(d) is not the built-in default")
                }
                checked += 1
            }
        }
        expectGreaterOrEqual(checked, 30)
    }

    @Test func streakSettingsNameConfigKeysTheDecoderAccepts() throws {
        let text = try doc("streaks.md")
        let table = try #require(text.components(separatedBy: "| setting").dropFirst().first)
        var checked = 0
        for line in table.split(separator: "\n").dropFirst() {  // the header row's rest
            guard line.hasPrefix("|") else { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            let names = keys(inCell: cells[1])
            // "`setting` (`streaks.key`)": the config key; a bare setting name must be a config key itself.
            let key = names.count > 1 ? names[1] : "streaks." + names[0]
            #expect(throws: Never.self, "docs/streaks.md: \(key)") { try Config.decode(json: json(key, "null")) }
            checked += 1
        }
        expectEqual(checked, 6)
    }
}
