/// One leg of a multisport event (a triathlon's swim, bike and run and the transitions between
/// them, each a workout of its own): `event` is the id shared by every leg (the first leg's
/// id), `leg` its place (1-based) among `legs`. JSON: `multisport` (the shared id, null for a
/// workout of its own), `multisportLeg`, `multisportLegs`.
public struct MultisportLeg: Sendable, Equatable {
    public var event: WorkoutID
    public var leg: Int
    public var legs: Int

    public init(event: WorkoutID, leg: Int, legs: Int) {
        self.event = event; self.leg = leg; self.legs = legs
    }
}
