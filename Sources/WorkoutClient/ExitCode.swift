/// workoutctl's exit statuses (docs/protocol.md, "What a client may rely on"): the contract scripts rely on.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// The command did what was asked.
    case ok = 0
    /// The daemon refused the command (start while active, unknown id, ...) or it failed
    /// (an import with an error, an output file that cannot be written): reason on stderr.
    case failed = 1
    /// The command line is wrong: a usage hint on stderr.
    case usage = 2
    /// The daemon cannot be reached (no socket, nobody listening, not answering): EX_UNAVAILABLE.
    case unavailable = 69
}
