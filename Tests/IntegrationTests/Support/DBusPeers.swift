import Foundation
import Glibc

/// `../shared/tools/dbus-peers` (a private dbus-daemon with a BlueZ stand-in), started by the
/// test in its own short state directory and stopped with it.
final class DBusPeers {
    static let tool = DaemonHarness.sharedRoot.appendingPathComponent("tools/dbus-peers").path
    let state: String
    let address: String

    init(_ options: [String]) throws {
        var template = Array("/tmp/x.XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { throw POSIXError(.EIO) }
        state = String(cString: p) + "/peers"
        let r = try Reliability.run(["/usr/bin/python3", DBusPeers.tool, "start", "--state", state] + options)
        guard r.status == 0, let line = r.out.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix("DBUS_ADDRESS=") }) else {
            throw HarnessError.notReady("dbus-peers: \(r.err)")
        }
        address = String(line.dropFirst("DBUS_ADDRESS=".count))
    }

    /// calls.log: one object per call the stand-in served ({"t","service","method","args"}).
    func calls() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: state + "/calls.log", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isNewline).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func stop() {
        _ = try? Reliability.run(["/usr/bin/python3", DBusPeers.tool, "stop", "--state", state])
        try? FileManager.default.removeItem(atPath: (state as NSString).deletingLastPathComponent)
    }

    deinit { stop() }
}
