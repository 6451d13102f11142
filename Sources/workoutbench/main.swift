import Glibc

// workoutbench: the benchmarks of issue 9 (see BENCHMARKS.md and scripts/bench.sh).
// Each subcommand prints one line of key=value results.
let usage = """
    usage: workoutbench COMMAND [ARGS]
      nmea-decode FILE              decode an NMEA log (time the whole process from outside)
      nmea-gpx FILE OUT.gpx         NMEA log to a GPX file
      ingest [FIXES]                fixes/s through the feed socket into a running workout
      recorder-ingest [FIXES] [RUNS]  the recorder's ingest cost, second half of a 10 Hz track over the first
      memory [FIXES]                RSS idle and with FIXES (86400) points; save while status is asked
      cpu [SECONDS]                 daemon CPU while recording a 10 Hz feed in real time
      cpu-gpsd HOST:PORT PID [SECONDS]  the same from a real gpsd (PID), gpsd's CPU beside it
      cpu-sensors [SECONDS]         the 10 Hz feed of a ride plus four Bluetooth sensors (bus in DBUS_SYSTEM_BUS_ADDRESS)
      control [CLIENTS] [SECONDS]   control socket status requests/s with CLIENTS connections
      status-process [RUNS]         `workoutctl status` as a whole process, median
      save [POINTS] [RUNS]          HistoryStore.save of a POINTS-point workout, median
      status-reply [POINTS] [RUNS]  in-process cost of a status reply's workout part, median
      startup [WORKOUTS] [RUNS]     exec to ready with WORKOUTS saved workouts, median
      import-phases FILE [RUNS]     the daemon's import + GPX export of FILE, phase by phase, median
      fit-copies OUT COUNT FILE...  COUNT FIT activities, copies of FILEs each a day later (batch bench)
      fit-decode FILE [RUNS]        in-process FIT decode/import vs gpsbabel -i garmin_fit, median
      import-load FOLDER [RATE]     status latency during `workoutctl import FOLDER` with a live ride at RATE Hz
      fit-memory [N] [DIR|-] [MODE] peak RSS importing a FIT file of N (1500000) 1 Hz records: daemon, stream, whole
      arrival [FILES] [POINTS]      FILES workout files renamed into the history folder at once: seconds until
                                    indexed and listed, status latency meanwhile
      web-page [POINTS] [RUNS]      the web page of a POINTS-point recorded ride over HTTP, median; render in process
      web-history [WORKOUTS] [RUNS] the history page with WORKOUTS saved workouts over HTTP, median
      web-load [LOADS] [CONC] [RATE] LOADS page loads CONC at a time while a ride records at RATE Hz: status p99, fixes
      analytics [WORKOUTS] [YEARS] [RUNS]  `fitness`, /fitness and `power-curve` over WORKOUTS rides with power in YEARS years
      counts [--extra-allocations N] [WORKLOAD...]  heap allocations of fixed workloads (LD_PRELOAD=malloccount.so;
                                    .ci/counts.sh checks them against .ci/count-limits; --list names the workloads)
    """

let args = Array(CommandLine.arguments.dropFirst())
let rest = Array(args.dropFirst())
switch args.first {
case "nmea-decode": NMEADecodeBenchmark.run(rest)
case "nmea-gpx": GPXExportBenchmark.run(rest)
case "ingest": IngestBenchmark.run(rest)
case "recorder-ingest": RecorderIngestBenchmark.run(rest)
case "memory": MemoryBenchmark.run(rest)
case "cpu": CPUBenchmark.run(rest)
case "cpu-gpsd": CPUBenchmark.runGpsd(rest)
case "cpu-sensors": CPUBenchmark.runSensors(rest)
case "control": ControlThroughputBenchmark.run(rest)
case "status-process": ProcessTimingBenchmark.run(rest)
case "save": SaveBenchmark.run(rest)
case "status-reply": StatusReplyBenchmark.run(rest)
case "startup": StartupBenchmark.run(rest)
case "import-phases": ImportPhasesBenchmark.run(rest)
case "fit-copies": FITCopiesBenchmark.run(rest)
case "fit-decode": FITDecodeBenchmark.run(rest)
case "fit-memory": FITMemoryBenchmark.run(rest)
case "import-load": ImportLoadBenchmark.run(rest)
case "arrival": ArrivalBenchmark.run(rest)
case "web-page": WebBenchmark.pageRun(rest)
case "web-history": WebBenchmark.historyRun(rest)
case "web-load": WebBenchmark.loadRun(rest)
case "analytics": AnalyticsBenchmark.run(rest)
case "counts": CountsBenchmark.run(rest)
default:
    BenchSupport.writeOut(2, usage + "\n")
    exit(2)
}
