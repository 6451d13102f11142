import Glibc

/// A failed system call, with errno and its text, so a person can act on it
/// ("bind /run/user/1000/workoutd/control.sock: Address already in use").
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var operation: String
    public var code: Int32

    public init(_ operation: String, code: Int32) { self.operation = operation; self.code = code }

    /// The error of the last failed call (reads errno).
    public static func last(_ operation: String) -> SystemError { SystemError(operation, code: errno) }

    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "\(operation): \(reason)" }
}
