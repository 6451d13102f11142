import Glibc

/// The first process of every hook the daemon runs: `workoutd --hook-trampoline PROGRAM ARGS...`
/// (main.swift hands it here before anything else starts). `HookRunner` starts it in a process
/// group of its own with the event on stdin, a report pipe on stdout, /dev/null on stderr and,
/// on descriptor 3, the read end of the runner's lifeline: a pipe only the daemon holds open for
/// writing, so it ends when the daemon ends, however it ends (SIGKILL included; the daemon never
/// writes to it). The trampoline starts the hook in its own group with stdin, /dev/null on
/// stdout and stderr and nothing else, waits for it and exits with its status (a signal is
/// raised again), so the runner's outcomes, timeouts and group kills are unchanged.
///
/// - The lifeline ends while the hook runs: the group gets SIGTERM, then SIGKILL after
///   `graceSeconds` (the trampoline with it).
/// - The hook exits leaving processes in the group (`sleep 60 &`): a forked guardian leaves the
///   group and watches the lifeline until they end, so they too die with the daemon. The daemon's
///   orderly stop ends them itself (`HookRunner.shutDown`).
/// - The hook cannot be started: its errno goes to the report pipe as digits, exit 127.
///
/// A parent-death signal (PR_SET_PDEATHSIG) would fire when the daemon's *thread* that spawned
/// it ends and cannot watch for a guardian; the pipe has neither problem and no race with a
/// daemon that died before the trampoline started (the pipe has already ended then).
public enum HookTrampoline {
    public static let flag = "--hook-trampoline"
    /// The lifeline's read end in the trampoline.
    static let lifeline: Int32 = 3
    static let graceSeconds = 0.5

    /// `args`: the hook's argv. Returns the exit status (after a signal is raised again, only
    /// if raising did not end the process).
    public static func main(_ args: [String]) -> Int32 {
        // Only as the daemon starts it: the leader of a group of its own (it signals the whole
        // group), descriptor 3 a pipe.
        var st = stat()
        guard !args.isEmpty, getpgrp() == getpid(), fstat(lifeline, &st) == 0, st.st_mode & S_IFMT == S_IFIFO,
              fcntl(lifeline, F_SETFD, FD_CLOEXEC) == 0 else {
            _ = write(2, "workoutd: --hook-trampoline is started by workoutd itself\n", 58)
            return 2
        }
        // SIGTERM to the group (the daemon's orderly stop) ends the hook; the trampoline then
        // exits with the hook's status. SIGCHLD interrupts the wait below.
        signal(SIGTERM, SIG_IGN)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        sigaction(SIGCHLD, &action, nil)
        var chld = sigset_t()
        sigemptyset(&chld)
        sigaddset(&chld, SIGCHLD)
        sigprocmask(SIG_BLOCK, &chld, nil)

        let (pid, rc) = spawn(args)
        guard rc == 0 else {
            let digits = Array("\(rc)".utf8)
            _ = write(1, digits, digits.count)
            return 127
        }
        var status: Int32 = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return 127 }
            if lifelineEnded(waitSeconds: nil) { endGroup() }
        }
        if HookRunner.hasLiveMember(getpgrp(), except: getpid()) { guardLeftovers() }
        let sig = status & 0x7F
        if sig == 0 { return (status >> 8) & 0xFF }
        // Die of the same signal, without a core of our own (the hook dumped its own): a core
        // limit of 0 is not heeded by a core_pattern pipe (systemd-coredump would report
        // workoutd crashed); not dumpable is.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        _ = prctl?(4 /* PR_SET_DUMPABLE */, 0, 0, 0, 0)
        signal(sig, SIG_DFL)
        var one = sigset_t()
        sigemptyset(&one)
        sigaddset(&one, sig)
        sigprocmask(SIG_UNBLOCK, &one, nil)
        raise(sig)
        return 128 + sig
    }

    /// The hook in our group: default signal actions and an empty mask (we ignore SIGTERM and
    /// block SIGCHLD), stdin as given, /dev/null on stdout and stderr, no other descriptor.
    private static func spawn(_ args: [String]) -> (pid: pid_t, rc: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = HookRunner.addCloseFrom?(&actions, 3)
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        posix_spawnattr_setflags(&attr, HookRunner.defaultSignals(&attr))
        let cargs = args.map { strdup($0) } + [nil]
        defer { for p in cargs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, args[0], &actions, &attr, cargs, environ)
        return (pid, rc)
    }

    /// Waits until the lifeline ends, a signal arrives (SIGCHLD: ppoll unblocks it while it
    /// waits) or `waitSeconds` pass; true when the lifeline has ended.
    private static func lifelineEnded(waitSeconds: Double?) -> Bool {
        var fd = pollfd(fd: lifeline, events: Int16(POLLIN), revents: 0)
        let r: Int32
        if let ppoll {
            var none = sigset_t()
            sigemptyset(&none)
            if let s = waitSeconds {
                var ts = timespec(tv_sec: Int(s), tv_nsec: Int((s - s.rounded(.down)) * 1e9))
                r = ppoll(&fd, 1, &ts, &none)
            } else {
                r = ppoll(&fd, 1, nil, &none)
            }
        } else {
            r = poll(&fd, 1, Int32(min(waitSeconds ?? 0.05, 0.05) * 1000))  // no ppoll: look every 50 ms
        }
        return r > 0 && fd.revents != 0
    }

    /// prctl(2) (variadic in C, so not imported; called with its five integer arguments).
    private static let prctl = CLibrary.function("prctl", as: (@convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32).self)

    /// glibc's ppoll (not imported: it needs _GNU_SOURCE).
    private static let ppoll = CLibrary.function(
        "ppoll", as: (@convention(c) (UnsafeMutablePointer<pollfd>, nfds_t, UnsafePointer<timespec>?, UnsafePointer<sigset_t>?) -> Int32).self)

    /// The daemon is gone: SIGTERM to our group, SIGKILL after the grace (which ends us too).
    private static func endGroup() -> Never {
        let group = getpgrp(), me = getpid()
        kill(0, SIGTERM)
        let deadline = HookRunner.monotonic() + graceSeconds
        var status: Int32 = 0
        while HookRunner.monotonic() < deadline {
            while waitpid(-1, &status, WNOHANG) > 0 {}
            if !HookRunner.hasLiveMember(group, except: me) { exit(0) }
            usleep(10_000)
        }
        kill(0, SIGKILL)
        exit(0)
    }

    /// The hook exited and left processes in the group: a guardian outside it ends them when
    /// the lifeline ends, and exits when they have ended on their own (looked at twice a second).
    private static func guardLeftovers() {
        let group = getpgrp()
        guard fork() == 0 else { return }
        setpgid(0, 0)
        let null = open("/dev/null", O_RDWR)
        dup2(null, 0); dup2(null, 1); close(null)
        while kill(-group, 0) == 0 {
            guard lifelineEnded(waitSeconds: 0.5) else { continue }
            kill(-group, SIGTERM)
            let deadline = HookRunner.monotonic() + graceSeconds
            while kill(-group, 0) == 0, HookRunner.monotonic() < deadline { usleep(10_000) }
            kill(-group, SIGKILL)
            break
        }
        _exit(0)
    }
}
