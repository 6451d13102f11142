import func Glibc.floor
import func Glibc.log10
import func Glibc.pow

/// Tick values for chart axes: round numbers (1, 2 or 5 times a power of ten) for quantities,
/// round durations for time.
public enum ChartAxis {
    /// About `count` ticks covering [lo, hi], at a step of 1, 2 or 5 x 10^k.
    public static func ticks(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
        guard lo.isFinite, hi.isFinite, hi > lo, count > 0 else { return lo.isFinite ? [lo] : [] }
        let step = niceStep((hi - lo) / Double(count))
        var t = (lo / step).rounded(.up) * step
        var out: [Double] = []
        while t <= hi + step * 1e-9, out.count < 100 {
            out.append(abs(t) < step * 1e-9 ? 0 : t)
            t += step
        }
        return out
    }

    /// 1, 2 or 5 x 10^k, the smallest at least `raw`.
    public static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let p = pow(10, floor(log10(raw)))
        for m in [1.0, 2, 5, 10] where m * p >= raw * (1 - 1e-9) { return m * p }
        return 10 * p
    }

    /// Ticks on a time axis of `span` seconds: steps of 1, 2, 5, 10, 15, 30 minutes, 1, 2, 3, 6,
    /// 12 hours, about `count` of them, from 0.
    public static func timeTicks(_ lo: Double, _ hi: Double, count: Int) -> [Double] {
        guard hi > lo, lo.isFinite, hi.isFinite else { return [] }
        let raw = (hi - lo) / Double(max(1, count))
        let steps: [Double] = [10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400]
        let step = steps.first { $0 >= raw } ?? 86400 * (raw / 86400).rounded(.up)
        var t = (lo / step).rounded(.up) * step
        var out: [Double] = []
        while t <= hi, out.count < 100 { out.append(t); t += step }
        return out
    }

    /// Decimals to write a tick of this step with (0 for steps of 1 and more).
    public static func decimals(forStep step: Double) -> Int {
        guard step > 0, step < 1 else { return 0 }
        return min(3, Int((-log10(step)).rounded(.up)))
    }
}
