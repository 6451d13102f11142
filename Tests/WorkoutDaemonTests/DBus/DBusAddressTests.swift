import Glibc
import Testing
@testable import WorkoutDaemon

@Suite struct DBusAddressTests {
    @Test func parsesUnixAddresses() throws {
        #expect(try DBusAddress.parse("unix:path=/run/dbus/system_bus_socket") == .path("/run/dbus/system_bus_socket"))
        #expect(try DBusAddress.parse("unix:abstract=/tmp/dbus-XXXX,guid=0123") == .abstract("/tmp/dbus-XXXX"))
        #expect(try DBusAddress.parse("tcp:host=localhost,port=1;unix:path=/tmp/a%20b") == .path("/tmp/a b"))
        #expect(try DBusAddress.parse("unix:guid=1,path=/x") == .path("/x"))
    }

    @Test func refusesWhatItCannotUse() {
        #expect(throws: DBusError.self) { try DBusAddress.parse("tcp:host=localhost,port=1") }
        #expect(throws: DBusError.self) { try DBusAddress.parse("unix:tmpdir=/tmp") }
        #expect(throws: DBusError.self) { try DBusAddress.parse("nonsense") }
        #expect(throws: DBusError.self) { try DBusAddress.parse("unix:path=/a%zz") }
        #expect(throws: DBusError.self) { try DBusAddress.parse("unix:path") }
    }

    @Test func environment() throws {
        #expect(try DBusAddress.system(environment: [:]) == .path("/run/dbus/system_bus_socket"))
        #expect(try DBusAddress.system(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/x/bus"]) == .path("/x/bus"))
        #expect(try DBusAddress.session(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == .path("/run/user/1000/bus"))
        #expect(try DBusAddress.session(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:abstract=s", "XDG_RUNTIME_DIR": "/r"]) == .abstract("s"))
        #expect(throws: DBusError.self) { try DBusAddress.session(environment: [:]) }
    }

    @Test func connectingToNothingIsATypedError() {
        let loop = try! EventLoop()
        #expect {
            _ = try DBusConnection(address: .path("/tmp/no-such-bus-\(getpid())"), loop: loop)
        } throws: { e in
            guard case DBusError.connectFailed(_, let sys) = e else { return false }
            return sys.code == ENOENT
        }
    }
}
