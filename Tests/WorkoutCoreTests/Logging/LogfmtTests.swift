import Testing
@testable import WorkoutCore

/// An event made of whatever the test wants.
struct TestEvent: LogEvent {
    var name: String
    var level: LogLevel
    var message: String
    var fields: [(String, LogValue)]
}

@Suite struct LogfmtTests {
    static let t = ISO8601.parse("2026-11-21T09:30:00.123Z")!

    @Test func rendersBothStyles() {
        let e = TestEvent(name: "workout.saved", level: .info, message: "Workout saved",
                          fields: [("id", .string("2026-11-21-0930")), ("distance_m", .double(5012.345, decimals: 1)),
                                   ("points", .int(1200)), ("imported", .bool(false)), ("note", .string("hill \"repeats\" = 4"))])
        expectEqual(Logfmt.render(e, style: .journald, timestamp: Self.t),
                #"<6>Workout saved event=workout.saved level=info id=2026-11-21-0930 distance_m=5012.3 points=1200 imported=false note="hill \"repeats\" = 4""#)
        expectEqual(Logfmt.render(e, style: .plain, timestamp: Self.t),
                #"2026-11-21T09:30:00.123Z info Workout saved event=workout.saved level=info id=2026-11-21-0930 distance_m=5012.3 points=1200 imported=false note="hill \"repeats\" = 4""#)
    }

    @Test func quotesMessagesThatWouldBeAmbiguous() {
        func line(_ m: String) -> String { Logfmt.render(TestEvent(name: "x", level: .warning, message: m, fields: []), style: .journald, timestamp: 0) }
        expectEqual(line("GPS lost"), "<4>GPS lost event=x level=warning")
        expectEqual(line("a=b"), #"<4>"a=b" event=x level=warning"#)
        expectEqual(line("two\nlines"), #"<4>"two\nlines" event=x level=warning"#)
        expectEqual(line(" padded"), #"<4>" padded" event=x level=warning"#)
        expectEqual(line(""), "<4>event=x level=warning")
        expectEqual(line("<3>fake"), #"<4>"<3>fake" event=x level=warning"#)
    }

    @Test func reservedAndOddKeys() {
        let e = TestEvent(name: "x", level: .debug, message: "m", fields: [("event", .int(1)), ("bad key=", .int(2)), ("", .int(3))])
        expectEqual(Logfmt.body(e), "m event=x level=debug event_=1 bad_key_=2 _=3")
        expectEqual(Logfmt.value(.double(.nan, decimals: 2)), "nan")
        expectEqual(Logfmt.value(.double(-.infinity, decimals: 2)), "-inf")
        #expect(Logfmt.value(.string("")) == #""""#)
    }

    @Test func streakEventsRenderAndParse() {
        let d = DayStreak(start: StreakDay(iso: "2026-11-16")!, end: StreakDay(iso: "2026-11-21")!, days: 6, restDays: 0)
        let e = StreakLogEvent.extended(.daily(d), previous: 5)
        expectEqual(Logfmt.render(e, style: .journald, timestamp: 0),
                "<6>Daily streak extended to 6 days event=streak.extended level=info kind=daily length=6 start=2026-11-16 end=2026-11-21 previous=5")
        let r = StreakLogEvent.atRisk(StreakAtRisk(day: StreakDay(iso: "2026-11-22")!, streak: d, minutesLeft: 330))
        expectEqual(Logfmt.render(r, style: .plain, timestamp: Self.t),
                "2026-11-21T09:30:00.123Z notice Daily streak of 6 days at risk: no workout yet today event=streak.at_risk level=notice kind=daily length=6 start=2026-11-16 last=2026-11-21 day=2026-11-22 minutes_left=330")
        let s = StreakCalculator(zone: .utc).status(history: [StreakWorkout(startedAt: Self.t, durationSeconds: 900)], now: Self.t)
        let line = Logfmt.render(StreakLogEvent.summary(s, zone: "Europe/Berlin"), style: .journald, timestamp: 0)
        #expect(line.hasPrefix("<6>Streaks: daily 1 (best 1), weekly 1 (best 1) event=streak.summary level=info today=2026-11-21 zone=Europe/Berlin today_done=true"))
        expectEqual(LogfmtParser.parse(line)?["daily_best_end"], "2026-11-21")
    }

    /// Every rendered line parses back to the same message and fields, for hostile strings.
    @Test func hostileRoundTrip() {
        let alphabet: [String] = ["a", "Z", "0", " ", "  ", "=", "\"", "\\", "\n", "\r\n", "\t", "\u{0}", "\u{7F}", "\u{85}",
                                  "\u{2028}", "é", "e\u{301}", "\"\u{301}", "😀", "👩‍👩‍👧", "<6>", "event=", "a=b", "\\n", "\\u0041",
                                  "\u{A0}", "日本", "2026-11-21T09:30:00Z", "key=\"v\"", "}"]
        var rng = SeededRandom(seed: 99)
        func randomString() -> String {
            (0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }.joined()
        }
        var checked = 0
        for n in 0..<3000 {
            var fields: [(String, LogValue)] = []
            for _ in 0..<Int.random(in: 0...5, using: &rng) {
                let v: LogValue
                switch Int.random(in: 0...3, using: &rng) {
                case 0: v = .string(randomString())
                case 1: v = .int(Int.random(in: Int.min...Int.max, using: &rng))
                case 2: v = .double(Double.random(in: -1e9...1e9, using: &rng), decimals: Int.random(in: 0...6, using: &rng))
                default: v = .bool(Bool.random(using: &rng))
                }
                fields.append((randomString(), v))
            }
            let e = TestEvent(name: n % 7 == 0 ? randomString() : "test.event", level: LogLevel.allCases.randomElement(using: &rng)!,
                              message: randomString(), fields: fields)
            for style in LogStyle.allCases {
                let line = Logfmt.render(e, style: style, timestamp: Double(n) * 1000.5)
                #expect(!line.contains("\n") && !line.contains("\r") && !line.unicodeScalars.contains("\u{2028}"))
                guard let p = LogfmtParser.parse(line) else { Issue.record("unparsable: \(line)"); continue }
                let expected = [LogfmtLine.Field("event", e.name), .init("level", e.level.label)]
                    + e.fields.map { k, v in
                        let key = Logfmt.key(k)
                        let text: String
                        if case .string(let original) = v { text = original } else { text = Logfmt.value(v) }
                        return .init(Logfmt.reservedKeys.contains(key) ? key + "_" : key, text)
                    }
                #expect(p.message.unicodeScalars.elementsEqual(e.message.unicodeScalars), "\(line)")
                #expect(p.fields.count == expected.count && zip(p.fields, expected).allSatisfy {
                    $0.key == $1.key && $0.value.unicodeScalars.elementsEqual($1.value.unicodeScalars)
                }, "\(line)")
                switch style {
                case .journald: #expect(p.priority == e.level.rawValue && p.timestamp == nil)
                case .plain:
                    expectEqual(p.levelWord, e.level.label)
                    expectLess(abs(p.timestamp! - Double(n) * 1000.5), 0.001)
                }
                checked += 1
            }
        }
        expectEqual(checked, 6000)
    }

    @Test func parserRejectsBrokenLines() {
        expectNil(LogfmtParser.parse(#"<6>m event="open"#))
        expectNil(LogfmtParser.parse(#"<6>m event="a\q""#))
        expectNil(LogfmtParser.parse(#"<6>"unterminated event=x"#))
        expectNil(LogfmtParser.parse("<6>m event=x =y"))
        expectEqual(LogfmtParser.parse("<6>m event=x level=info")?.fields.count, 2)
    }
}
