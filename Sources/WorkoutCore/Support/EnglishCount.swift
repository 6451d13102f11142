/// A count in English words: "1 saved workout", "3 saved workouts", "0 files".
public enum EnglishCount {
    /// `n` and `noun`, plural (`plural`, default `noun` + "s") unless `n` is 1.
    public static func of(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
