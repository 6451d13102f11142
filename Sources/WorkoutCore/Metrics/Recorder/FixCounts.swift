/// How many fixes the recorder accepted, and how many it rejected for each reason.
struct FixCounts: Sendable {
    private(set) var accepted = 0
    private(set) var rejected: [RejectionReason: Int] = [:]

    mutating func accept() { accepted += 1 }
    mutating func reject(_ reason: RejectionReason) { rejected[reason, default: 0] += 1 }
}
