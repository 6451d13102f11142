import WorkoutCore

/// A signal subscription: sent to the bus with AddMatch, and checked again locally to decide
/// which handler gets a signal. A well-known `sender` (org.freedesktop.login1) is left to the
/// bus: signals carry the owner's unique name, so locally only a unique sender is compared.
public struct DBusMatchRule: Sendable, Equatable, CustomStringConvertible {
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    /// The first argument, when it is a string (e.g. PropertiesChanged's interface name).
    public var arg0: String?

    public init(sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil, arg0: String? = nil) {
        self.sender = sender; self.path = path; self.interface = interface; self.member = member; self.arg0 = arg0
    }

    /// The rule's text for AddMatch/RemoveMatch (values quoted; a quote in a value is written
    /// as '\'' as the specification says).
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ v: String?) {
            guard let v else { return }
            parts.append("\(key)='" + v.replacingAll("'", with: "'\\''") + "'")
        }
        add("sender", sender); add("path", path); add("interface", interface); add("member", member); add("arg0", arg0)
        return parts.joined(separator: ",")
    }

    public func matches(_ m: DBusMessage) -> Bool {
        guard m.kind == .signal else { return false }
        if let sender, sender.hasPrefix(":"), m.sender != sender { return false }
        if let path, m.path != path { return false }
        if let interface, m.interface != interface { return false }
        if let member, m.member != member { return false }
        if let arg0 {
            guard let first = m.body.first, case .string(let s) = first, s == arg0 else { return false }
        }
        return true
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
