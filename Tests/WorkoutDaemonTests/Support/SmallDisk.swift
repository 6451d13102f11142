import Foundation
import Glibc
import Testing

/// A tiny tmpfs for tests of full-disk behaviour (mount needs root; CI runs as root). Outside CI
/// without root the test prints SKIPPED and does nothing; under `CI=true` that is a failure.
struct SmallDisk {
    let path: String

    /// Mounts a tmpfs of `size` (e.g. "64k") on a new short temp directory, or nil (skipped).
    static func mount(size: String, sourceLocation: SourceLocation = #_sourceLocation) -> SmallDisk? {
        var template = Array("/tmp/wd.XXXXXX".utf8CString)
        guard let p = mkdtemp(&template) else { return nil }
        let dir = String(cString: p)
        let status = getuid() == 0 ? run(["/usr/bin/mount", "-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", dir]) : -1
        guard status == 0 else {
            rmdir(dir)
            let why = getuid() == 0 ? "mount -t tmpfs failed" : "needs root to mount a tmpfs (CI runs as root)"
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("required in CI: \(why)", sourceLocation: sourceLocation)
            } else {
                print("SKIPPED: \(why)")
            }
            return nil
        }
        return SmallDisk(path: dir)
    }

    /// Fills the disk with `filler` until a write fails with ENOSPC.
    func fill() -> String {
        let filler = path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let block = [UInt8](repeating: 0, count: 512)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        close(fd)
        return filler
    }

    func unmount() {
        _ = Self.run(["/usr/bin/umount", "-l", path])
        rmdir(path)
    }

    @discardableResult
    static func run(_ args: [String]) -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: args[0])
        p.arguments = Array(args.dropFirst())
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return -1 }
        p.waitUntilExit()
        return p.terminationStatus
    }
}
