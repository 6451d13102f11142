import Foundation
import Glibc

/// Polls `condition` every `interval` seconds until it holds or `seconds` pass, and returns
/// whether it held (a last look after the deadline). The one wait on work another thread or
/// process does (the daemon's workers, a file arriving, Syncthing): never a fixed sleep.
@discardableResult
func eventually(_ seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}
