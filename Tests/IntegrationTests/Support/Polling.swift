import Foundation
import Glibc

/// Polls `condition` every 20 ms until it holds or `seconds` pass; returns whether it held. For
/// what another thread or process does (a peer's log, a daemon's file): never a fixed sleep.
@discardableResult
func pollUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}
