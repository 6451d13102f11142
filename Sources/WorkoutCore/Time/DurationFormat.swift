/// h:mm:ss
public func formatDuration(_ seconds: Double) -> String {
    let t = Int(max(0, seconds).rounded(.down))
    let s = t % 60, m = t / 60 % 60, h = t / 3600
    return "\(h):" + (m < 10 ? "0" : "") + "\(m):" + (s < 10 ? "0" : "") + "\(s)"
}
