/// The workout page's edit form, read: the fields it sends (`activity`, `title`, `notes`,
/// `gear`, `effort`) compared with the workout as saved, giving the `edit` that changes only
/// what the person changed. An emptied text or effort clears its field.
public enum WebEditForm {
    public enum Outcome: Equatable, Sendable {
        /// The change to make (never empty).
        case edit(WorkoutEdit)
        /// The form changes nothing.
        case unchanged
        /// A field cannot be saved; the reason in words.
        case refused(String)
    }

    public static func read(_ form: [(name: String, value: String)], current s: WorkoutSummary) -> Outcome {
        func field(_ name: String) -> String? { form.last { $0.name == name }?.value }
        var edit = WorkoutEdit()
        if let value = field("activity") {
            guard let activity = ActivityType(rawValue: value) else { return .refused("'\(value)' is not an activity.") }
            if activity != s.activity { edit.activity = activity }
        }
        func text(_ name: String, _ now: String?) -> FieldEdit<String>? {
            guard let value = field(name) else { return nil }
            let cleaned = WorkoutAnnotation.cleaned(value.replacingCRLF())
            guard cleaned != now else { return nil }
            return cleaned.map { .set($0) } ?? .clear
        }
        edit.title = text("title", s.title)
        edit.notes = text("notes", s.notes)
        edit.gear = text("gear", s.gear)
        if let value = field("effort") {
            let trimmed = value.trimmed()
            if trimmed.isEmpty {
                if s.effort != nil { edit.effort = .clear }
            } else {
                guard let n = Int(trimmed) else { return .refused("effort must be a number from 1 to 10, not '\(trimmed)'.") }
                if n != s.effort { edit.effort = .set(n) }
            }
        }
        if let problem = edit.problem { return .refused(problem + ".") }
        return edit.isEmpty ? .unchanged : .edit(edit)
    }
}

extension String {
    /// Line ends as a browser sends them in a textarea (CR LF) made LF.
    func replacingCRLF() -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        var lastWasCR = false
        for ch in unicodeScalars {
            if lastWasCR && ch != "\n" { out.unicodeScalars.append("\n") }
            lastWasCR = ch == "\r"
            if !lastWasCR { out.unicodeScalars.append(ch) }
        }
        if lastWasCR { out.unicodeScalars.append("\n") }
        return out
    }
}
