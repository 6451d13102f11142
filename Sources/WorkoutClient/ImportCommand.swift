import Glibc
import WorkoutCore

/// `import PATH... [--activity A]`: files and folders (recursively). The client opens each file
/// and passes its descriptor (SCM_RIGHTS) in requests of up to `chunk` files (fewer when their
/// names are long, so the line stays under the daemon's limit); the daemon reads
/// them off its event loop and answers one `import` event per file, then counts. On a terminal a
/// progress line (done/total, current file) stays under the result lines; piped, one line per
/// file. Ctrl-C shuts the connection's writing side: the daemon stops after the current file,
/// keeps what it imported, and reports it (docs/workoutctl.md).
struct ImportCommand {
    let client: Client
    let invocation: Invocation
    let options: ImportOptions
    /// Files per request (each a descriptor in flight); fewer when their names are long.
    var chunk = ControlRequest.maxDescriptors
    /// The longest request line the client sends (the daemon's default limit is 64 KiB).
    static let maxLineBytes = 60_000
    /// The longest title sent; a longer one is cut (whole characters) and the user told.
    static let maxTitleBytes = 4096

    /// The longest prefix of whole characters of `s` within `maxBytes` bytes of UTF-8.
    static func cut(_ s: String, maxBytes: Int) -> String { String(s.prefix(utf8Bytes: maxBytes)) }

    func run() -> ExitCode {
        let console = client.console
        let found = ImportFiles.collect(options.paths)
        var results: [JSON] = []
        var skipped: [JSON] = []
        let progress = console.isTerminal && !invocation.json
        for s in found.skipped {
            skipped.append(["file": .string(s.path), "why": .string(s.why)])
            if !invocation.json { console.out("skipped    \(TerminalText.visible(s.path)): \(TerminalText.visible(s.why))\n") }
        }
        let total = found.files.count
        if total == 0 {
            if invocation.json { console.out(JSON.object(JSONObject([("results", []), ("skipped", .array(skipped))])).pretty() + "\n") }
            console.err("workoutctl: no files to import\n")
            return .failed
        }
        let conn: LineConnection
        do { conn = try LineConnection.connect(path: client.controlPath(invocation)) } catch {
            return client.report(.connection(error), json: invocation.json)
        }
        let signals = client.catchesSignals ? Interrupts.install() : -1
        var interrupted = false
        var done = 0
        var counts = (imported: 0, duplicates: 0, errors: 0)
        func show(_ r: JSON) {
            results.append(r)
            switch ImportResultReply(json: r).kind {
            case .imported: counts.imported += 1
            case .duplicate: counts.duplicates += 1
            case .error: counts.errors += 1
            }
            guard !invocation.json else { return }
            if progress { console.out("\r\u{1B}[K") }
            console.out(client.renderer.importLine(TerminalText.visible(r)))
        }
        func drawProgress(_ current: String?) {
            guard progress else { return }
            var line = "[\(done)/\(total)]"
            if let current { line += " importing " + TerminalText.visible(current) }
            if let cols = console.columns(), line.count > cols - 1 { line = String(line.prefix(max(0, cols - 1))) }
            console.out("\r\u{1B}[K" + line)
        }
        var start = 0
        var failure: Client.Failure?
        batches: while start < total, !interrupted {
            var items: [ImportItem] = []
            var fds: [Int32] = []
            var lineBytes = 64
            while start < total, items.count < chunk {
                var c = found.files[start]
                // A title longer than anyone writes (a 70 KB Strava "Activity Name") is cut: sent
                // whole it made the request line too long, and every later file was lost.
                if let title = c.title, title.utf8.count > ImportCommand.maxTitleBytes {
                    c.title = ImportCommand.cut(title, maxBytes: ImportCommand.maxTitleBytes)
                    console.err("workoutctl: \(TerminalText.visible(c.path)): title of \(title.utf8.count) bytes cut to its first \(ImportCommand.maxTitleBytes)\n")
                }
                // The request line stays under the daemon's default limit (`limits.maxRequestBytes`,
                // 64 KiB) whatever the paths and notes: a file's item as serialized, plus a comma.
                let item = c.item
                let itemBytes = item.json.serialized().utf8.count + 8
                if !items.isEmpty, lineBytes + itemBytes > ImportCommand.maxLineBytes { break }
                start += 1
                if lineBytes + itemBytes > ImportCommand.maxLineBytes {
                    // Even alone it would not fit (a path of control characters, escaped 6 times
                    // over): this file gets an error, the others go on.
                    done += 1
                    show(["file": .string(c.path), "id": nil, "result": "error",
                          "error": .string("its name and title take \(itemBytes) bytes in a request, more than the \(ImportCommand.maxLineBytes) a request may hold")])
                    continue
                }
                switch ImportFiles.open(c.path) {
                case .success(let fd):
                    fds.append(fd)
                    items.append(item)
                    lineBytes += itemBytes
                case .failure(let why):
                    done += 1
                    show(["file": .string(c.path), "id": nil, "result": "error", "error": .string(why.description)])
                }
            }
            guard !items.isEmpty else { continue }
            let request = ControlRequest.importDescriptors(items, options.activity).encoded()
            do {
                try conn.send(line: request.serialized(), descriptors: fds)
            } catch {
                for fd in fds { close(fd) }
                failure = .connection(error)
                break
            }
            for fd in fds { close(fd) }  // the daemon holds its own copies now
            var answered = 0
            drawProgress(items.first?.file)
            while true {
                switch conn.wait(timeout: client.importTimeout, alsoWatch: signals >= 0 ? signals : nil) {
                case .timedOut:
                    failure = .connection(.timedOut(path: conn.path, seconds: client.importTimeout)); break batches
                case .interrupted:
                    if Interrupts.pending(), !interrupted {
                        interrupted = true
                        shutdown(conn.fd, Int32(SHUT_WR))  // the daemon stops after the current file
                        if progress { console.out("\r\u{1B}[K") }
                        console.err("workoutctl: interrupted; stopping after the current file\n")
                    }
                    continue
                case .readable: break
                }
                let line: [UInt8]
                do {
                    guard let l = try conn.readLine(timeout: client.importTimeout) else { failure = .connection(.closed(path: conn.path)); break batches }
                    line = l
                } catch { failure = .connection(error); break batches }
                guard let reply = try? JSON.parse(line), reply.objectValue != nil else {
                    failure = .badReply("the daemon's reply is not JSON: " + String(decoding: line.prefix(200), as: UTF8.self)); break batches
                }
                if reply["event"]?.stringValue == "import" {
                    var r = reply
                    if var o = r.objectValue { o["event"] = nil; r = .object(o) }
                    show(r)
                    done += 1
                    answered += 1
                    drawProgress(answered < items.count ? items[answered].file : nil)
                    continue
                }
                if case .failure(let f) = Client.interpret(line) { failure = f; break batches }
                if reply["cancelled"]?.boolValue == true { interrupted = true }
                break
            }
        }
        if progress { console.out("\r\u{1B}[K") }
        if let failure {
            if case .refused = failure {} else if !results.isEmpty, !invocation.json {
                console.err("workoutctl: \(results.count) of \(total) files were handled before this:\n")
            }
            return client.report(failure, json: invocation.json)
        }
        let notAttempted = total - done
        if invocation.json {
            let summary: JSON = .object(JSONObject([
                ("results", .array(results)), ("skipped", .array(skipped)),
                ("imported", .int(counts.imported)), ("duplicates", .int(counts.duplicates)), ("errors", .int(counts.errors)),
                ("interrupted", .bool(interrupted)), ("notAttempted", .int(notAttempted)),
            ]))
            console.out(summary.pretty() + "\n")
        } else if total > 1 || interrupted {
            var s = "\(counts.imported) imported, \(counts.duplicates) duplicate\(counts.duplicates == 1 ? "" : "s"), \(counts.errors) error\(counts.errors == 1 ? "" : "s")"
            if !found.skipped.isEmpty { s += ", \(found.skipped.count) skipped" }
            if interrupted { s += "; interrupted, \(notAttempted) not attempted" }
            console.out(s + ".\n")
        }
        if counts.errors > 0 { console.err("workoutctl: some files could not be imported\n") }
        return counts.errors > 0 || interrupted ? .failed : .ok
    }
}

/// `import PATH... [--activity A]`; paths are absolute after parsing.
public struct ImportOptions: Sendable, Equatable {
    public var paths: [String]
    public var activity: ActivityType?
    public init(paths: [String], activity: ActivityType? = nil) { self.paths = paths; self.activity = activity }
}
