/// A personal best as the `stop` and `show` replies carry it (SI: metres, seconds):
/// `{"distanceMeters","seconds","startTime","previousSeconds"}`, `previousSeconds` null for
/// the first effort at that distance.
extension PersonalBest {
    /// `PersonalBestReply`'s codec (typed once for daemon and client).
    public func json() -> JSON { PersonalBestReply(self).json() }
}
