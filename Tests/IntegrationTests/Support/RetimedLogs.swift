import Foundation
import Testing

/// Copies of a shared NMEA capture re-timed by scripts/retime-nmea.py (each copy on another day,
/// so none is a duplicate of another), written into a folder for an import test.
enum RetimedLogs {
    /// Writes `copies` logs of `seconds` seconds each from `../shared/data/nmea/<capture>` into
    /// `folder` (created); returns their total size in bytes.
    static func write(capture: String, seconds: Int, copies: Int, into folder: String) throws -> Int {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = DaemonHarness.projectRoot.appendingPathComponent("scripts/retime-nmea.py").path
        let source = DaemonHarness.sharedRoot.appendingPathComponent("data/nmea/" + capture).path
        var bytes = 0
        for k in 1...copies {
            let out = folder + "/copy\(k).nmea"
            let r = try Reliability.run(["/bin/sh", "-c", "python3 \"$0\" \"$1\" \(seconds) \"$2\" > \"$3\"", script, source, "\(k)", out])
            try #require(r.status == 0, "retime-nmea.py: \(r.err)")
            bytes += Int((try FileManager.default.attributesOfItem(atPath: out)[.size] as? NSNumber)?.intValue ?? 0)
        }
        return bytes
    }
}
