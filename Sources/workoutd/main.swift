import Glibc
import WorkoutDaemon

// workoutd: parse flags, load config, run the daemon (all in WorkoutDaemon). A hook's
// trampoline (the daemon starts each hook through its own binary) is handed on first.
let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == HookTrampoline.flag { exit(HookTrampoline.main(Array(arguments.dropFirst(2)))) }
exit(DaemonCommandLine.main(arguments))
