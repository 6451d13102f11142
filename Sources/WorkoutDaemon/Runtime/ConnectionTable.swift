/// A connection a server keeps on its loop: its id in the server's table, its descriptor and
/// the loop's token for it.
protocol PolledConnection: AnyObject {
    var fd: Int32 { get }
    var id: Int { get }
    var token: EventLoop.Token { get set }
}

/// A server's open connections by id (the control socket's, the web pages'): each new one is
/// added under the next id and its descriptor watched on the server's loop.
struct ConnectionTable<Connection: PolledConnection> {
    private var byID: [Int: Connection] = [:]
    private var nextID = 1

    var count: Int { byID.count }
    var isEmpty: Bool { byID.isEmpty }
    var values: Dictionary<Int, Connection>.Values { byID.values }
    subscript(id: Int) -> Connection? { byID[id] }

    /// Adds the connection `make` builds for the next id and watches its descriptor on `loop`:
    /// `ready(owner, connection, revents)` runs on its events while both are alive (neither is
    /// held by the watch).
    mutating func add<Owner: AnyObject>(on loop: EventLoop, owner: Owner, _ make: (Int) -> Connection,
                                         ready: @escaping (Owner, Connection, Int16) -> Void) -> Connection {
        let c = make(nextID)
        nextID += 1
        byID[c.id] = c
        c.token = loop.watch(c.fd) { [weak owner, weak c] revents in
            guard let owner, let c else { return }
            ready(owner, c, revents)
        }
        return c
    }

    /// Removes the connection; false when it was not (or no longer) in the table.
    @discardableResult
    mutating func remove(_ c: Connection) -> Bool { byID.removeValue(forKey: c.id) != nil }
}
