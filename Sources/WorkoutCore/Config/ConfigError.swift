/// What is wrong with a configuration, naming the key (`metrics.jumpMeters`) and the problem.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var problem: String
    public init(key: String, problem: String) { self.key = key; self.problem = problem }
    public var description: String { key.isEmpty ? problem : "\(key): \(problem)" }
}
