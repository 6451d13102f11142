import Foundation
import TestRequirements

/// Locates `../shared` (real captures, tracks, schemas, tools) beside the project root.
/// Tests that need it use `.requires(.sharedData)`: skipped with a reason for a user
/// without it, but run (and fail on the missing files) when `CI=true`.
enum SharedData {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    static let root: URL = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }
    static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("data").path) }
    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    /// Files in a shared folder with the given extension, sorted.
    static func files(in folder: String, ext: String) -> [URL] {
        let dir = url(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix("." + ext) }.sorted().map { dir.appendingPathComponent($0) }
    }

    /// The file's bytes, copied out of `Data` in one `memcpy` (`[UInt8](data)` in the unoptimized
    /// test build copies byte by byte through generic witnesses).
    static func bytes(_ url: URL) throws -> [UInt8] {
        let d = try Data(contentsOf: url)
        return [UInt8](unsafeUninitializedCapacity: d.count) { buffer, n in
            if let base = buffer.baseAddress { d.copyBytes(to: base, count: d.count) }
            n = d.count
        }
    }

    /// Whether two byte arrays are equal, by `memcmp`: `==` in the unoptimized test build compares
    /// byte by byte through generic witnesses (a quarter of a test's CPU over megabytes).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { x in b.withUnsafeBytes { y in a.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 } }
    }

    /// Whether a command is on PATH (for peer tools: xmllint, gpsbabel, gpsd).
    static func hasCommand(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let dirs = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        return dirs.contains { FileManager.default.isExecutableFile(atPath: $0 + "/" + name) }
    }

    /// The interpreter `python3` on PATH runs (`Python.interpreter`: not a pyenv shim).
    static var python: String { Python.interpreter }

    /// Runs a command, returning its exit status, standard output and standard error. A command
    /// "python3" runs `python` (the same interpreter, without a shim).
    @discardableResult
    static func run(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try launch(args.first == "python3" ? [python] + args.dropFirst() : args, stdin: stdin, environment: environment)
    }

    private static func launch(_ args: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe(), inp = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inp
        try p.run()
        if let stdin { inp.fileHandleForWriting.write(stdin) }
        try? inp.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
