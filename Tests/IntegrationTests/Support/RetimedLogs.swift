import Foundation
import Testing

/// Copies of a shared NMEA capture re-timed by scripts/retime-nmea.py (each copy on another day,
/// so none is a duplicate of another), written into a folder for an import test.
enum RetimedLogs {
    /// Writes `copies` logs of `seconds` seconds each from `../shared/data/nmea/<capture>` into
    /// `folder` (created); returns their total size in bytes.
    static func write(capture: String, seconds: Int, copies: Int, into folder: String) throws -> Int {
        let copy = try plan(capture: capture, seconds: seconds, into: folder)
        var bytes = 0
        for k in 1...copies { bytes += try written(copy(k), Reliability.run(copy(k).args)) }
        return bytes
    }

    /// `write` for `async` tests: suspends while python re-times each copy.
    static func writeSuspending(capture: String, seconds: Int, copies: Int, into folder: String) async throws -> Int {
        let copy = try plan(capture: capture, seconds: seconds, into: folder)
        var bytes = 0
        for k in 1...copies { bytes += try written(copy(k), await Reliability.runSuspending(copy(k).args)) }
        return bytes
    }

    /// Creates `folder`; the command that writes copy k, and where.
    private static func plan(capture: String, seconds: Int, into folder: String) throws -> (Int) -> (args: [String], out: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = DaemonHarness.projectRoot.appendingPathComponent("scripts/retime-nmea.py").path
        let source = DaemonHarness.sharedRoot.appendingPathComponent("data/nmea/" + capture).path
        return { k in
            let out = folder + "/copy\(k).nmea"
            return (["/bin/sh", "-c", "python3 \"$0\" \"$1\" \(seconds) \"$2\" > \"$3\"", script, source, "\(k)", out], out)
        }
    }

    /// The size of the copy the command wrote, once it succeeded.
    private static func written(_ copy: (args: [String], out: String), _ r: (status: Int32, out: String, err: String)) throws -> Int {
        try #require(r.status == 0, "retime-nmea.py: \(r.err)")
        return Int((try FileManager.default.attributesOfItem(atPath: copy.out)[.size] as? NSNumber)?.intValue ?? 0)
    }
}
