/// The specification's syntax rules for object paths and names, checked on what we send and
/// on what we receive.
public enum DBusNames {
    public static let maximumNameLength = 255

    /// "/" or "/elem/elem", elements of [A-Za-z0-9_], no empty element, no trailing "/".
    public static func isValidObjectPath(_ path: String) -> Bool {
        let b = Array(path.utf8)
        guard b.first == UInt8(ascii: "/") else { return false }
        if b.count == 1 { return true }
        guard b.last != UInt8(ascii: "/") else { return false }
        var previousSlash = false
        for c in b {
            if c == UInt8(ascii: "/") {
                if previousSlash { return false }
                previousSlash = true
            } else {
                guard isWordByte(c) else { return false }
                previousSlash = false
            }
        }
        return true
    }

    /// Interface and error names: two or more elements of [A-Za-z_][A-Za-z0-9_]*, dots between.
    public static func isValidInterface(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard !b.isEmpty, b.count <= maximumNameLength else { return false }
        let parts = b.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { p in
            guard let f = p.first, !isDigit(f) else { return false }
            return p.allSatisfy(isWordByte)
        }
    }

    /// A member (method or signal) name: one element of [A-Za-z_][A-Za-z0-9_]*.
    public static func isValidMember(_ name: String) -> Bool {
        let b = Array(name.utf8)
        guard let f = b.first, b.count <= maximumNameLength, !isDigit(f) else { return false }
        return b.allSatisfy(isWordByte)
    }

    /// A bus name: unique (":1.42", elements may start with digits) or well-known
    /// ("org.freedesktop.login1", elements may hold "-"), two or more elements.
    public static func isValidBusName(_ name: String) -> Bool {
        var b = Array(name.utf8)
        guard !b.isEmpty, b.count <= maximumNameLength else { return false }
        let unique = b[0] == UInt8(ascii: ":")
        if unique { b.removeFirst() }
        let parts = b.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { p in
            guard let f = p.first else { return false }
            if !unique && isDigit(f) { return false }
            return p.allSatisfy { isWordByte($0) || $0 == UInt8(ascii: "-") }
        }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || isDigit(c) || c == UInt8(ascii: "_")
    }
}
