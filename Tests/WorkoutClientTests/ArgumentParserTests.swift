import Testing
import WorkoutCore
@testable import WorkoutClient

@Suite struct ArgumentParserTests {
    let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!

    func parse(_ args: String...) -> Result<Invocation, UsageError> {
        ArgumentParser.parse(args, cwd: "/home/u/runs")
    }

    func command(_ args: String...) -> ClientCommand? {
        guard case .success(let inv) = ArgumentParser.parse(args, cwd: "/home/u/runs") else { return nil }
        return inv.command
    }

    func isUsageError(_ args: [String]) -> Bool {
        if case .failure = ArgumentParser.parse(args, cwd: "/") { return true }
        return false
    }

    @Test func everySimpleCommand() {
        #expect(command("start", "running") == .send(.start(.running)))
        #expect(command("start", "Trail-Running") == .send(.start(.trailRunning)))
        #expect(command("pause") == .send(.pause))
        #expect(command("resume") == .send(.resume))
        #expect(command("lap") == .send(.lap))
        #expect(command("stop") == .send(.stop))
        #expect(command("toggle") == .send(.toggle))
        #expect(command("status") == .send(.status))
        #expect(command("watch") == .watch)
        #expect(command("activities") == .send(.activities))
        #expect(command("streak") == .send(.streak))
        #expect(command("reload") == .send(.reload))
        #expect(command("show", id.rawValue) == .send(.show(id)))
        #expect(command("delete", id.rawValue) == .send(.delete(id)))
        #expect(command("undelete", id.rawValue) == .send(.undelete(id)))
    }

    @Test func marker() {
        #expect(command("marker") == .send(.marker(nil)))
        #expect(command("marker", "water", "stop") == .send(.marker("water stop")))
        #expect(command("marker", "--", "-5 degrees") == .send(.marker("-5 degrees")))
    }

    @Test func list() {
        #expect(command("list") == .list(ListOptions()))
        #expect(command("list", "--from", "2026-11-01", "--to=2026-11-21", "--activity", "cycling", "--limit", "5")
                == .list(ListOptions(from: "2026-11-01", to: "2026-11-21", activity: .cycling, limit: 5)))
        let req = ClientCommand.list(ListOptions(from: "2026-11-01", limit: 3)).request
        #expect(req?["command"]?.stringValue == "list")
        #expect(req?["from"]?.stringValue == "2026-11-01")
        #expect(req?["limit"]?.intValue == 3)
        // The daemon's decoder accepts what we send.
        #expect((try? ControlRequest.decode(req!).get()) != nil)
    }

    @Test func export() {
        #expect(command("export", id.rawValue, "--format", "gpx") == .export(ExportOptions(id: id, format: .gpx)))
        #expect(command("export", "--format=TCX", id.rawValue, "--output", "out.tcx")
                == .export(ExportOptions(id: id, format: .tcx, output: "/home/u/runs/out.tcx")))
        #expect(command("export", id.rawValue, "--format", "json", "--output", "/tmp/a.json")
                == .export(ExportOptions(id: id, format: .json, output: "/tmp/a.json")))
        #expect(command("export", id.rawValue, "--format", "json", "--output", "-") == .export(ExportOptions(id: id, format: .json)))
    }

    @Test func importMakesPathsAbsolute() {
        #expect(command("import", "a.gpx", "./b.tcx", "/data/c.nmea", "--activity", "hiking")
                == .importFiles(ImportOptions(paths: ["/home/u/runs/a.gpx", "/home/u/runs/b.tcx", "/data/c.nmea"], activity: .hiking)))
        #expect(command("import", "strava-export") == .importFiles(ImportOptions(paths: ["/home/u/runs/strava-export"])))
    }

    @Test func edit() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        #expect(command("edit", id.rawValue, "--activity", "Trail-Running") == .send(.edit(id, WorkoutEdit(activity: .trailRunning))))
        #expect(command("edit", id.rawValue) == nil, "needs a field to change")
        #expect(command("edit", id.rawValue, "--activity", "flying") == nil)
        let req = command("edit", id.rawValue, "--activity", "cycling")?.request
        #expect(req == ["command": "edit", "id": "20261121T093000Z-3f9a", "activity": "cycling"])
        #expect((try? ControlRequest.decode(req!).get()) == .edit(id, WorkoutEdit(activity: .cycling)))
    }

    @Test func editTitleNotesGearEffort() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        let full = WorkoutEdit(title: .set("Morning run"), notes: .set("windy"), gear: .set("Pegasus 40"), effort: .set(7))
        #expect(command("edit", id.rawValue, "--title", " Morning run ", "--notes", "windy", "--gear=Pegasus 40", "--effort", "7")
                == .send(.edit(id, full)))
        let req = command("edit", id.rawValue, "--title", "Morning run", "--notes", "windy", "--gear", "Pegasus 40", "--effort", "7")?.request
        #expect(req == ["command": "edit", "id": "20261121T093000Z-3f9a", "title": "Morning run", "notes": "windy", "gear": "Pegasus 40", "effort": 7])
        #expect((try? ControlRequest.decode(req!).get()) == .edit(id, full))
        // An empty value clears; cleared fields travel as null.
        let cleared = command("edit", id.rawValue, "--title", "", "--effort", "")
        #expect(cleared == .send(.edit(id, WorkoutEdit(title: .clear, effort: .clear))))
        #expect(cleared?.request == ["command": "edit", "id": "20261121T093000Z-3f9a", "title": .null, "effort": .null])
        #expect(command("edit", id.rawValue, "--effort", "11") == nil, "effort is 1-10")
        #expect(command("edit", id.rawValue, "--effort", "hard") == nil)
    }

    @Test func editRecordsOffAndOn() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        let off = command("edit", id.rawValue, "--records", "off")
        #expect(off == .send(.edit(id, WorkoutEdit(records: .excluded))))
        #expect(off?.request == ["command": "edit", "id": "20261121T093000Z-3f9a", "records": "excluded"])
        #expect((try? ControlRequest.decode(off!.request!).get()) == .edit(id, WorkoutEdit(records: .excluded)))
        #expect(command("edit", id.rawValue, "--records", "on") == .send(.edit(id, WorkoutEdit(records: .counted))))
        #expect(command("edit", id.rawValue, "--records", "maybe") == nil, "off or on only")
        #expect((try? ControlRequest.decode(["command": "edit", "id": "20261121T093000Z-3f9a", "records": true]).get()) == nil,
                "the request's records is a word, not a Bool")
    }

    @Test func recompute() {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        let pause = MetricsOverride(key: "metrics.autoPauseSeconds", value: 0)
        let lap = MetricsOverride(key: "metrics.autoLapMeters", value: .null)
        #expect(command("recompute", id.rawValue) == .send(.recompute(id, [], save: false)))
        #expect(command("recompute", id.rawValue, "--set", "metrics.autoPauseSeconds=0", "--set=metrics.autoLapMeters=null", "--save")
                == .send(.recompute(id, [pause, lap], save: true)))
        #expect(command("recompute", id.rawValue, "--set", "autoPauseSeconds=0") == nil, "not a metrics key")
        #expect(command("recompute", id.rawValue, "--set", "metrics.autoPauseSeconds") == nil, "no value")
        #expect(command("recompute", id.rawValue, "--save=yes") == nil)
        #expect(command("recompute", "--set", "metrics.autoPauseSeconds=0") == nil, "needs an ID")
        let req = command("recompute", id.rawValue, "--set", "metrics.autoPauseSeconds=0", "--save")?.request
        #expect(req == ["command": "recompute", "id": "20261121T093000Z-3f9a", "set": ["metrics.autoPauseSeconds": 0], "save": true])
        #expect((try? ControlRequest.decode(req!).get()) == .recompute(id, [pause], save: true))
        #expect((try? ControlRequest.decode(["command": "recompute", "id": .string(id.rawValue), "set": 3]).get()) == nil)
    }

    @Test func simulate() {
        #expect(command("simulate") == .simulate(SimulateOptions()))
        #expect(command("simulate", "run.nmea", "--speed", "10", "--loop")
                == .simulate(SimulateOptions(file: "/home/u/runs/run.nmea", speed: 10, loop: true)))
        #expect(command("simulate", "--speed=0", "--activity", "cycling", "--feed-socket", "/tmp/f.sock")
                == .simulate(SimulateOptions(speed: 0, activity: .cycling, feedSocket: "/tmp/f.sock")))
        #expect(command("simulate")?.request == nil)
    }

    @Test func globalOptionsBeforeOrAfterTheCommand() throws {
        #expect(try parse("--socket", "/tmp/x.sock", "--json", "status").get() == Invocation(socketPath: "/tmp/x.sock", json: true, command: .send(.status)))
        #expect(try parse("status", "--json", "--socket=rel.sock").get() == Invocation(socketPath: "/home/u/runs/rel.sock", json: true, command: .send(.status)))
    }

    @Test func helpAndVersion() {
        #expect(command("--help") == .help(nil))
        #expect(command("-h") == .help(nil))
        #expect(command("help") == .help(nil))
        #expect(command("help", "export") == .help("export"))
        #expect(command("export", "--help") == .help("export"))
        #expect(command("start", "-h") == .help("start"))
        #expect(command("--version") == .version)
        for c in CommandHelp.all { #expect(command(c.name, "--help") == .help(c.name)) }
    }

    @Test(arguments: [
        [], ["frobnicate"], ["--bogus", "status"], ["--socket"], ["--socket", "", "status"],
        ["start"], ["start", "flying"], ["start", "running", "cycling"],
        ["pause", "now"], ["resume", "x"], ["lap", "1"], ["stop", "--force"], ["toggle", "x"], ["status", "x"],
        ["watch", "x"], ["activities", "x"], ["streak", "x"], ["reload", "x"],
        ["show"], ["show", "a/b"], ["show", "x", "y"], ["delete"], ["undelete", "../etc"],
        ["list", "x"], ["list", "--from", "yesterday"], ["list", "--to", "2026-13-01"], ["list", "--limit", "0"],
        ["list", "--limit", "-3"], ["list", "--limit"], ["list", "--activity", "flying"], ["list", "--sort", "x"],
        ["export"], ["export", "20261121T093000Z-3f9a"], ["export", "20261121T093000Z-3f9a", "--format", "kml"],
        ["export", "20261121T093000Z-3f9a", "--format"], ["export", "--format", "gpx"],
        ["import"], ["import", "--activity", "running"], ["import", "a.gpx", "--activity", "flying"],
        ["simulate", "a", "b"], ["simulate", "--speed", "-1"], ["simulate", "--speed", "fast"], ["simulate", "--loop=yes"],
        ["simulate", "--activity", "x"], ["help", "frobnicate"], ["help", "a", "b"],
    ])
    func badUsage(_ args: [String]) {
        #expect(isUsageError(args))
    }

    @Test func usageErrorsExit2WithAHint() {
        let capture = Capture()
        let client = Client(console: capture.console, paths: SocketPaths(directory: "/nonexistent"))
        #expect(client.run(arguments: ["start"], cwd: "/") == .usage)
        #expect(capture.stderr.contains("start needs an activity"))
        #expect(capture.stderr.contains("workoutctl start --help"))
        #expect(capture.stdout.isEmpty)
    }

    @Test func absolutePaths() {
        #expect(ArgumentParser.absolute("a", cwd: "/") == "/a")
        #expect(ArgumentParser.absolute("./a", cwd: "/x/") == "/x/a")
        #expect(ArgumentParser.absolute("/b", cwd: "/x") == "/b")
        #expect(ArgumentParser.absolute("../b", cwd: "/x") == "/x/../b")
    }
}
