import Glibc
import WorkoutCore

/// `workoutd --debug-dbus ...`: the D-Bus client on its own, for checks on a real system
/// (.ci/systemd-test.sh runs it inside systemd-rig and under the service's sandbox).
///
///   workoutd --debug-dbus list-names
///       Hello + org.freedesktop.DBus.ListNames on the system bus; prints our name and the count.
///   workoutd --debug-dbus inhibit MODE SECONDS [SLEEP_AT WAKE_AT]
///       takes the sleep inhibitor in MODE (block, delay, off) and prints every state change;
///       with SLEEP_AT/WAKE_AT, runs the PrepareForSleep(true/false) handling at those seconds
///       (what logind's signal does, for a container that cannot suspend); releases at SECONDS.
/// Each line is written at once. Exit 0 on success (inhibit: a lock was held), 1 on a D-Bus
/// failure, 2 on bad usage.
public enum DBusDebugCommand {
    public static let usage = "usage: workoutd --debug-dbus list-names | inhibit block|delay|off SECONDS [SLEEP_AT WAKE_AT]"

    public static func main(_ args: [String], environment: [String: String]) -> Int32 {
        let address: DBusAddress
        do { address = try DBusAddress.system(environment: environment) } catch {
            say("error: \(error)"); return 1
        }
        guard let loop = try? EventLoop() else { say("error: cannot create the event loop"); return 1 }
        switch args.first {
        case "list-names": return listNames(address, loop)
        case "inhibit":
            guard args.count == 3 || args.count == 5, let mode = SleepInhibitMode(rawValue: args[1]),
                  let seconds = Double(args[2]) else { say(usage); return 2 }
            let sleepAt = args.count == 5 ? Double(args[3]) : nil
            let wakeAt = args.count == 5 ? Double(args[4]) : nil
            return inhibit(address, loop, mode: mode, seconds: seconds, sleepAt: sleepAt, wakeAt: wakeAt)
        default:
            say(usage); return 2
        }
    }

    static func listNames(_ address: DBusAddress, _ loop: EventLoop) -> Int32 {
        var status: Int32 = 1
        let connection: DBusConnection
        do { connection = try DBusConnection(address: address, loop: loop) } catch {
            say("error: \(error)"); return 1
        }
        connection.defaultTimeout = 10
        connection.onReady = { if case .success(let name) = $0 { say("connected to \(address) as \(name)") } }
        connection.callBus("ListNames") { result in
            switch result {
            case .success(let reply):
                let names = reply.body.first?.elements?.compactMap(\.string) ?? []
                say("ListNames: \(names.count) names: " + names.filter { !$0.hasPrefix(":") }.sorted().joined(separator: " "))
                status = 0
            case .failure(let e): say("error: ListNames: \(e)")
            }
            loop.stop()
        }
        do { try loop.run() } catch { say("error: \(error)"); status = 1 }
        connection.close()
        return status
    }

    static func inhibit(_ address: DBusAddress, _ loop: EventLoop, mode: SleepInhibitMode, seconds: Double,
                        sleepAt: Double?, wakeAt: Double?) -> Int32 {
        let inhibitor = SleepInhibitor(loop: loop, mode: mode, address: address, why: "workoutd D-Bus check")
        var held = false
        inhibitor.onChange = { state in
            if state.heldMode != nil { held = true }
            say("state: \(state)")
        }
        inhibitor.onPrepareForSleep = { say("prepare-for-sleep: flushing (lock still \(inhibitor.state.heldMode.map { "\($0)" } ?? "not") held)") }
        inhibitor.onResume = { say("resumed") }
        say("state: \(inhibitor.state)")
        inhibitor.acquire()
        if let sleepAt { loop.after(sleepAt) { say("simulating PrepareForSleep(true)"); inhibitor.prepareForSleep(true) } }
        if let wakeAt { loop.after(wakeAt) { say("simulating PrepareForSleep(false)"); inhibitor.prepareForSleep(false) } }
        loop.after(seconds) { inhibitor.release(); loop.stop() }
        do { try loop.run() } catch { say("error: \(error)"); return 1 }
        // Success: a lock was held (the lines above say which), or none was asked for.
        return held || mode == .off ? 0 : 1
    }

    static func say(_ line: String) {
        _ = Array((line + "\n").utf8).withUnsafeBytes { try? writeAll(1, $0) }
    }
}
