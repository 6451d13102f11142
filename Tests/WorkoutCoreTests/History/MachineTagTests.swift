import Testing
import WorkoutCore

/// Machine tags and the IDs that carry them: distinct across machines, still sorted by start.
struct MachineTagTests {
    @Test func drawnTagsAreValidAndDiffer() {
        var rng = SeededRandom(seed: 7)
        var seen: Set<String> = []
        for _ in 0..<1000 {
            let t = MachineTag(random: rng.next())
            expectEqual(t.rawValue.utf8.count, MachineTag.length)
            expectEqual(MachineTag(rawValue: t.rawValue), t)
            seen.insert(t.rawValue)
        }
        expectEqual(seen.count, 1000)
    }

    @Test(arguments: ["", "ABC", "a-b", "a.b", "abcdefghijklmnopq", "ä"])
    func invalidTags(_ s: String) { expectNil(MachineTag(rawValue: s)) }

    @Test func idsOfTwoMachinesInTheSameSecondDiffer() {
        let a = WorkoutID(start: 1_795_340_000.2, suffix: 0x3f9a, machine: MachineTag(rawValue: "aaaaaa")!)
        let b = WorkoutID(start: 1_795_340_000.7, suffix: 0x3f9a, machine: MachineTag(rawValue: "bbbbbb")!)
        expectNotEqual(a, b)
        #expect(a.rawValue == "20261121T070000Z-3f9a-aaaaaa" || a.rawValue.hasSuffix("-3f9a-aaaaaa"))
        expectEqual(WorkoutID(rawValue: a.rawValue), a, "valid per WorkoutID's rules")
        expectEqual(a.machine?.rawValue, "aaaaaa")
        expectNil(WorkoutID(start: 1_795_340_000, suffix: 1).machine)
    }

    @Test func idsSortByStartWhateverTheMachine() {
        var rng = SeededRandom(seed: 3)
        var made: [(Double, WorkoutID)] = []
        for k in 0..<500 {
            let start = 1_700_000_000 + Double(k) * 37.5
            made.append((start, WorkoutID(start: start, suffix: UInt16(truncatingIfNeeded: rng.next()), machine: MachineTag(random: rng.next()))))
        }
        let byID = made.sorted { $0.1 < $1.1 }.map(\.0)
        expectEqual(byID, made.map(\.0))
    }

    @Test func startingAtKeepsTheRandomPartAndMachine() {
        let id = WorkoutID(start: 1_795_340_000, suffix: 0xbeef, machine: MachineTag(rawValue: "k3m9xa")!)
        let moved = id.startingAt(1_795_343_600)
        expectEqual(moved, WorkoutID(start: 1_795_343_600, suffix: 0xbeef, machine: MachineTag(rawValue: "k3m9xa")!))
        expectEqual(moved.machine, id.machine)
        expectEqual(WorkoutID(start: 0, suffix: 1).startingAt(60), WorkoutID(start: 60, suffix: 1))
    }
}
