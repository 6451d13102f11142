import Glibc
import WorkoutCore

/// `export ID --format F [--output FILE]`: the daemon writes the file into a descriptor the
/// client passes (SCM_RIGHTS), never as megabytes inside a JSON string (docs/protocol.md).
/// With `--output` that is a temporary file beside FILE, synced and renamed into place after the
/// daemon's reply; to standard output, stdout itself when it is a regular file, else a pipe
/// whose other end the client copies to stdout (a terminal, `| less`).
struct ExportCommand {
    let client: Client
    let invocation: Invocation
    let options: ExportOptions

    func run() -> ExitCode {
        let console = client.console
        let conn: LineConnection
        do { conn = try LineConnection.connect(path: client.controlPath(invocation)) } catch {
            return client.report(.connection(error), json: invocation.json)
        }
        let request = ControlRequest.exportTo(options.id, options.format).encoded().serialized()
        guard let path = options.output else { return toStandardOutput(conn, request) }

        let slash = path.lastIndex(of: "/")!
        let dir = String(path[..<slash])
        let tmp = dir + "/." + path[path.index(after: slash)...] + ".tmp-\(getpid())"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            console.err("workoutctl: cannot create \(tmp): \(errnoText(errno))\n")
            return .failed
        }
        var ok = false
        defer { if !ok { unlink(tmp) } }
        let reply: JSON
        switch exchange(conn, request, fd) {
        case .failure(let f): close(fd); return client.report(f, json: invocation.json)
        case .success(let r): reply = r
        }
        if fsync(fd) != 0 { console.err("workoutctl: fsync \(tmp): \(errnoText(errno))\n"); close(fd); return .failed }
        if close(fd) != 0 { console.err("workoutctl: closing \(tmp): \(errnoText(errno))\n"); return .failed }
        guard rename(tmp, path) == 0 else { console.err("workoutctl: renaming \(tmp) to \(path): \(errnoText(errno))\n"); return .failed }
        ok = true
        let dfd = open(dir.isEmpty ? "/" : dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
        let export = ExportReply(json: reply)
        var bytes = 0
        if case .written(let n)? = export.body { bytes = n }
        if invocation.json {
            let r: JSON = ["format": .string(export.format ?? options.format.rawValue), "output": .string(path), "bytes": .int(bytes)]
            console.out(r.pretty() + "\n")
        } else {
            console.out("Wrote \(path) (\(bytes) bytes).\n")
        }
        return .ok
    }

    /// Sends the request with `fd` and reads the one reply.
    func exchange(_ conn: LineConnection, _ request: String, _ fd: Int32) -> Result<JSON, Client.Failure> {
        do {
            try conn.send(line: request, descriptors: [fd])
            guard let line = try conn.readLine(timeout: client.importTimeout) else { return .failure(.connection(.closed(path: conn.path))) }
            return Client.interpret(line)
        } catch { return .failure(.connection(error)) }
    }

    func toStandardOutput(_ conn: LineConnection, _ request: String) -> ExitCode {
        var st = stat()
        if let out = client.console.outDescriptor, fstat(out, &st) == 0, st.st_mode & S_IFMT == S_IFREG {
            switch exchange(conn, request, out) {
            case .failure(let f): return client.report(f, json: invocation.json)
            case .success: return .ok
            }
        }
        if options.format.isBinary, client.console.outDescriptor == nil || client.console.isTerminal {
            client.console.err("workoutctl: \(options.format.rawValue.uppercased()) is binary: give --output FILE or redirect standard output\n")
            return .usage
        }
        var p: [Int32] = [-1, -1]
        guard pipe(&p) == 0 else { client.console.err("workoutctl: pipe: \(errnoText(errno))\n"); return .failed }
        for fd in p { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        do { try conn.send(line: request, descriptors: [p[1]]) } catch {
            close(p[0]); close(p[1])
            return client.report(.connection(error), json: invocation.json)
        }
        close(p[1])  // the daemon's copy is the only writer: end of file when it is done
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        var copied = 0
        while true {
            let n = read(p[0], &buf, buf.count)
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            if let out = client.console.outDescriptor {
                // Bytes as they come (FIT is binary): straight to stdout.
                var off = 0
                while off < n {
                    let w = buf.withUnsafeBytes { Glibc.write(out, $0.baseAddress! + off, n - off) }
                    if w < 0 { if errno == EINTR { continue }; break }
                    off += w
                }
            } else {
                client.console.out(String(decoding: buf[0..<n], as: UTF8.self))
            }
            copied += n
        }
        close(p[0])
        do {
            guard let line = try conn.readLine(timeout: client.importTimeout) else { return client.report(.connection(.closed(path: conn.path)), json: invocation.json) }
            switch Client.interpret(line) {
            case .failure(let f): return client.report(f, json: invocation.json)
            case .success: return .ok
            }
        } catch { return client.report(.connection(error), json: invocation.json) }
    }
}
