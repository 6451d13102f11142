import Testing

/// `.peerBound`: a suite whose tests follow a real peer's clock (a paced gpsd replay, the BlueZ
/// stand-ins' 10 Hz notifications, a trainer's plan, `simulate`) takes one of `limit` slots
/// (`PeerBoundTrait.gate`) for each test. Its tests are `async` and wait suspended, so they hold
/// no pool thread; but nothing else bounded how many ran at once, and a plain `swift test` ran
/// them all together with their python stand-ins on two cores, where a 10 Hz peer falls behind
/// what the test times it by; five at once keep up on a quiet machine (57-63 s for a whole
/// `swift test` with Tests/TestRunWidth's 16, 69 s with three). CI runs each suite in a process of its
/// own, where this changes nothing.
struct PeerBoundTrait: SuiteTrait, TestTrait, TestScoping {
    static let limit = 5
    static let gate = TestGate(slots: limit)

    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await Self.gate.enter(1)
        do {
            try await function()
        } catch {
            await Self.gate.leave(1)
            throw error
        }
        await Self.gate.leave(1)
    }
}

extension Trait where Self == PeerBoundTrait {
    /// At most `PeerBoundTrait.limit` tests that follow a real peer's clock at once.
    static var peerBound: Self { PeerBoundTrait() }
}
