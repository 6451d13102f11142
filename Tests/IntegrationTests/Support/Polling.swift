import TestRequirements

/// `TestRequirements.pollUntil` (Tests/TestRequirements/Waiting.swift, the tests' one wait on a
/// condition), for the files of this target that import nothing else from there.
@discardableResult
func pollUntil(seconds: Double, every: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    try TestRequirements.pollUntil(seconds: seconds, every: every, condition)
}

/// `TestRequirements.waitUntil` (the suspending twin), for the same files.
@discardableResult
func waitUntil(seconds: Double, every: Double = 0.02, _ condition: () async throws -> Bool) async rethrows -> Bool {
    try await TestRequirements.waitUntil(seconds: seconds, every: every, condition)
}
