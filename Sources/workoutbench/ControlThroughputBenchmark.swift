import Glibc
import WorkoutCore

/// `workoutbench control [CLIENTS] [SECONDS]`: CLIENTS connections to the control socket, each
/// with one `status` request in flight at a time (driven by poll from one thread), for SECONDS;
/// requests answered per second. The daemon runs a workout with a few hundred points so status
/// carries a real summary.
enum ControlThroughputBenchmark {
    static func run(_ args: [String]) {
        let clients = args.first.flatMap { Int($0) } ?? 100
        let seconds = args.dropFirst().first.flatMap { Double($0) } ?? 5
        let daemon = DaemonProcess()
        daemon.start()
        _ = daemon.request(#"{"command":"start","activity":"running"}"#)
        _ = FixLines.send(FixLines.make(count: 600, start: BenchSupport.wallNow().rounded(.up) + 1, interval: 1), to: daemon.feedSocket)
        while daemon.pointCount() < 600 { usleep(10_000) }

        let request = Array(#"{"command":"status"}"#.utf8) + [10]
        var conns: [ControlClient] = []
        for _ in 0..<clients {
            guard let c = ControlClient(path: daemon.controlSocket) else { BenchSupport.fail("connect") }
            conns.append(c)
        }
        var fds = conns.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        var answered = 0, busy = 0
        let t0 = BenchSupport.now()
        for c in conns { _ = request.withUnsafeBytes { c.send($0) } }
        while BenchSupport.now() - t0 < seconds {
            let n = poll(&fds, nfds_t(fds.count), 1000)
            if n <= 0 { continue }
            for i in fds.indices where fds[i].revents != 0 {
                let got = recv(fds[i].fd, &buf, buf.count, 0)
                if got <= 0 { BenchSupport.fail("a control connection closed") }
                // Replies are one line each and the next request is sent only after a reply, so
                // a read ends with that reply's newline (or holds part of it).
                var lines = 0
                for k in 0..<got where buf[k] == 10 { lines += 1 }
                if lines > 0 {
                    if buf[0..<min(got, 40)].starts(with: Array(#"{"ok":false"#.utf8)) { busy += 1 }
                    answered += lines
                    _ = request.withUnsafeBytes { conns[i].send($0) }
                }
                fds[i].revents = 0
            }
        }
        let dt = BenchSupport.now() - t0
        BenchSupport.report([("clients", String(clients)), ("seconds", BenchSupport.fmt(dt, 2)), ("requests", String(answered)),
                             ("errors", String(busy)), ("requests_per_s", String(Int(Double(answered) / dt)))])
    }
}
