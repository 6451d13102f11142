import Glibc
import WorkoutDaemon

// workoutd: parse flags, load config, run the daemon (all in WorkoutDaemon).
exit(DaemonCommandLine.main(CommandLine.arguments))
