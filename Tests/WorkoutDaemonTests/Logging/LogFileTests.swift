import Foundation
import Testing
@testable import WorkoutDaemon

@Suite struct LogFileRotationTests {
    @Test func rotatesBySizeAndKeepsN() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wl.\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/workoutd.log"
        let f = LogFile(path: path, maxBytes: 1000, keep: 2)
        let line = String(repeating: "x", count: 99) + "\n"
        for _ in 0..<50 { f.write(line) }  // 5000 bytes: several rotations
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(names == ["workoutd.log", "workoutd.log.1", "workoutd.log.2"])
        for n in names {
            let size = (try FileManager.default.attributesOfItem(atPath: dir + "/" + n)[.size] as? Int) ?? 0
            #expect(size <= 1000 && size > 0, "\(n): \(size)")
        }
    }
}
