import Dispatch
import Glibc
import WorkoutCore

/// Looks a configured host name up off the event loop: `getaddrinfo` may wait for DNS for many
/// seconds (an outage would stall the loop past `WatchdogSec`). The lookup runs on a queue of
/// its own; the result is posted back to the loop. Tests give their own `lookup`.
struct NameResolver: Sendable {
    /// One address to connect to.
    struct Address: Sendable {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t
    }

    /// Host and port to the first address, or the failure in words.
    let lookup: @Sendable (_ host: String, _ port: UInt16) -> Result<Address, NameResolverError>

    private static let queue = DispatchQueue(label: "workoutd.resolver")

    /// Looks `host` up on the resolver's queue; `done` runs on `loop` with the result.
    func resolve(_ host: String, port: UInt16, on loop: EventLoop, _ done: @escaping @Sendable (Result<Address, NameResolverError>) -> Void) {
        let lookup = self.lookup
        NameResolver.queue.async {
            let result = lookup(host, port)
            loop.post { done(result) }
        }
    }

    /// The system's resolver (`getaddrinfo`, numeric service).
    static let system = NameResolver { host, port in
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var res: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &res)
        guard rc == 0, let ai = res else { return .failure(NameResolverError(host: host, reason: String(cString: gai_strerror(rc)))) }
        defer { freeaddrinfo(res) }
        var storage = sockaddr_storage()
        let length = min(ai.pointee.ai_addrlen, socklen_t(MemoryLayout<sockaddr_storage>.size))
        withUnsafeMutableBytes(of: &storage) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: ai.pointee.ai_addr, count: Int(length)))
        }
        return .success(Address(family: ai.pointee.ai_family, storage: storage, length: length))
    }
}

/// A host name that could not be looked up.
struct NameResolverError: Error, Sendable {
    let host: String
    let reason: String
    var description: String { "cannot resolve \(host): \(reason)" }
}
