// TEMPORARY SHIM: replaced by the systemd branch at merge.
import Glibc
public final class SystemdNotifier: Sendable {
    let socketPath: String?
    public let watchdogInterval: Double?
    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"]
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(Double.init).map { $0 / 2e6 }
    }
    public func notify(_ lines: [String]) {}
}
public enum SocketActivation {
    public struct Result { public var control: Int32? }
    public static func listenFDs(environment: [String: String]) -> Result { Result(control: nil) }
}
