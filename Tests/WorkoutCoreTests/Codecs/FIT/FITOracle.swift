import Foundation
@testable import WorkoutCore

/// Garmin's FIT SDK for Python (the oracle) through `fit_reference.py` beside this file.
enum FITOracle {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("fit_reference.py").path

    static let hasSDK: Bool = {
        (try? SharedData.run(["python3", "-c", "import garmin_fit_sdk, geographiclib"]).status) == 0
    }()

    struct Figures: Decodable {
        var integrity: Bool
        var errors: [String]
        var file_types: [String]
        var records: Int
        var positioned: Int
        /// Nil unless asked for (`figures(_:geodesic:)`).
        var geodesic: Double?
        var geodesic_running: Double?
        var hr_sum: Int
        var hr_count: Int
        var power_sum: Int
        var power_count: Int
        var sessions: [[Session]]
        var laps: Int
        var events: Int
        var lengths: Int

        enum Session: Decodable, Equatable {
            case number(Double), text(String), none
            init(from d: Decoder) throws {
                let c = try d.singleValueContainer()
                if c.decodeNil() { self = .none } else if let v = try? c.decode(Double.self) { self = .number(v) } else { self = .text(try c.decode(String.self)) }
            }
            var number: Double? { if case .number(let v) = self { return v }; return nil }
        }
    }

    /// The SDK's figures for files; the geodesic lengths only with `geodesic` (geographiclib in
    /// Python: a third of the script's CPU on a large file).
    static func figures(_ paths: [String], geodesic: Bool = false) throws -> [Figures] {
        let r = try SharedData.run(["python3", script] + (geodesic ? [] : ["--no-geodesic"]) + paths)
        guard r.status == 0 else { throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "fit_reference.py failed: \(r.stderr)"]) }
        return try r.stdout.split(separator: "\n").map { try JSONDecoder().decode(Figures.self, from: Data($0.utf8)) }
    }

    /// The SDK's figures for bytes we wrote (through a temporary file).
    static func figures(bytes: [UInt8]) throws -> Figures {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fit-\(UUID().uuidString).fit")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try figures([url.path])[0]
    }
}
