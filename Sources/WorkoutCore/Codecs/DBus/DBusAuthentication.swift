/// The client side of D-Bus's SASL handshake with the EXTERNAL mechanism (the kernel vouches
/// for our uid): `AUTH EXTERNAL <uid as hex of its decimal digits>`, then `NEGOTIATE_UNIX_FD`
/// after `OK <guid>`, then `BEGIN`. Pure: lines in, lines out; the connection does the I/O.
public struct DBusAuthentication: Sendable {
    /// Where the handshake stands.
    public enum Phase: Sendable, Equatable {
        /// `AUTH EXTERNAL` sent; waiting for OK or REJECTED. -> negotiatingFDs, failed
        case waitingForOK
        /// `NEGOTIATE_UNIX_FD` sent; waiting for AGREE_UNIX_FD or ERROR. -> done, failed
        case negotiatingFDs(guid: String)
        /// `BEGIN` sent: messages follow.
        case done(guid: String, unixFDs: Bool)
        case failed(String)
    }

    /// What the connection should do after a line from the server.
    public enum Step: Sendable, Equatable {
        case send([UInt8])
        /// Send these bytes (BEGIN); the byte stream carries messages from now on.
        case begin([UInt8], unixFDs: Bool)
        case fail(String)
    }

    public private(set) var phase: Phase = .waitingForOK
    /// A server line longer than this is an error (the specification's lines are short).
    public static let maximumLineLength = 1024

    public init() {}

    /// The bytes that open the connection: a NUL byte (the credentials byte) and AUTH.
    public static func opening(uid: UInt32) -> [UInt8] {
        let hex = Array(String(uid).utf8).map { b -> String in
            let h = String(b, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined()
        return [0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8)
    }

    /// Handles one line from the server (without its CR LF).
    public mutating func receive(line: String) -> Step {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        let command = words.first ?? ""
        switch phase {
        case .waitingForOK:
            switch command {
            case "OK":
                let guid = words.count > 1 ? words[1] : ""
                phase = .negotiatingFDs(guid: guid)
                return .send(Array("NEGOTIATE_UNIX_FD\r\n".utf8))
            case "REJECTED":
                return fail("the bus rejected EXTERNAL authentication (it offers: \(words.count > 1 ? words[1] : "nothing"))")
            default:
                return fail("unexpected reply to AUTH: \(line.prefix(80))")
            }
        case .negotiatingFDs(let guid):
            switch command {
            case "AGREE_UNIX_FD":
                phase = .done(guid: guid, unixFDs: true)
                return .begin(Array("BEGIN\r\n".utf8), unixFDs: true)
            case "ERROR":
                phase = .done(guid: guid, unixFDs: false)
                return .begin(Array("BEGIN\r\n".utf8), unixFDs: false)
            default:
                return fail("unexpected reply to NEGOTIATE_UNIX_FD: \(line.prefix(80))")
            }
        case .done, .failed:
            return fail("unexpected line after the handshake: \(line.prefix(80))")
        }
    }

    private mutating func fail(_ why: String) -> Step {
        phase = .failed(why)
        return .fail(why)
    }
}
