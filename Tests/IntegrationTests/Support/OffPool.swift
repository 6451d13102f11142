import Foundation

/// Runs blocking work (a child process, a socket read that waits) on a thread of its own and
/// awaits it, so the test holds none of Swift's cooperative-pool threads (one per core) while it
/// waits. The body only waits and returns what it got; the test checks it back on its task, where
/// `#expect` knows which test it belongs to.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
        Thread { done.resume(with: Result { try body() }) }.start()
    }
}
