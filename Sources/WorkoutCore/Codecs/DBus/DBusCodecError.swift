/// Why bytes from a D-Bus peer (or a value we were asked to send) are not a valid D-Bus message.
/// Every case names the problem and, where it helps, the byte offset in the message.
public enum DBusCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    case truncated(offset: Int, needed: Int)
    case invalidSignature(String, reason: String)
    case nonZeroPadding(offset: Int)
    case invalidBoolean(UInt32, offset: Int)
    case invalidString(offset: Int, reason: String)
    case invalidObjectPath(String)
    case invalidName(kind: String, String)
    case arrayTooLong(Int, limit: Int)
    case arrayLengthMismatch(offset: Int)
    case nestingTooDeep(limit: Int)
    case messageTooLong(Int, limit: Int)
    case invalidEndianness(UInt8)
    case unsupportedVersion(UInt8)
    case unknownMessageType(UInt8)
    case zeroSerial
    case missingHeaderField(String, kind: String)
    case headerFieldType(code: UInt8, signature: String)
    case bodyLengthMismatch(declared: Int, used: Int)
    case unixFDOutOfRange(index: UInt32, count: UInt32)
    case valueDoesNotMatchType(expected: String, found: String)

    public var description: String {
        switch self {
        case .truncated(let offset, let needed): return "D-Bus message truncated: \(needed) more bytes needed at offset \(offset)"
        case .invalidSignature(let s, let reason): return "invalid D-Bus signature \"\(s)\": \(reason)"
        case .nonZeroPadding(let offset): return "non-zero D-Bus padding byte at offset \(offset)"
        case .invalidBoolean(let v, let offset): return "D-Bus boolean must be 0 or 1, got \(v) at offset \(offset)"
        case .invalidString(let offset, let reason): return "invalid D-Bus string at offset \(offset): \(reason)"
        case .invalidObjectPath(let p): return "invalid D-Bus object path \"\(p)\""
        case .invalidName(let kind, let n): return "invalid D-Bus \(kind) \"\(n)\""
        case .arrayTooLong(let n, let limit): return "D-Bus array of \(n) bytes exceeds the limit of \(limit)"
        case .arrayLengthMismatch(let offset): return "D-Bus array elements overrun the array's declared length at offset \(offset)"
        case .nestingTooDeep(let limit): return "D-Bus containers nested deeper than \(limit)"
        case .messageTooLong(let n, let limit): return "D-Bus message of \(n) bytes exceeds the limit of \(limit)"
        case .invalidEndianness(let b): return "D-Bus message starts with endianness byte \(b), not 'l' or 'B'"
        case .unsupportedVersion(let v): return "D-Bus protocol version \(v) is not supported (only 1)"
        case .unknownMessageType(let t): return "unknown D-Bus message type \(t)"
        case .zeroSerial: return "D-Bus message with serial 0"
        case .missingHeaderField(let f, let kind): return "D-Bus \(kind) lacks the required header field \(f)"
        case .headerFieldType(let code, let sig): return "D-Bus header field \(code) has the wrong type \"\(sig)\""
        case .bodyLengthMismatch(let declared, let used): return "D-Bus body declared \(declared) bytes but its signature used \(used)"
        case .unixFDOutOfRange(let index, let count): return "D-Bus unix fd index \(index) but the message carries \(count) fds"
        case .valueDoesNotMatchType(let expected, let found): return "D-Bus value of type \"\(found)\" where \"\(expected)\" was declared"
        }
    }
}
