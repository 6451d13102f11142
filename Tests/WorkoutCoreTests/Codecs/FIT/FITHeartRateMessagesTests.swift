import Foundation
import Testing
import TestRequirements
@testable import WorkoutCore

/// Heart rate a strap stored during a swim (`hr` messages) merged into the records as Garmin's
/// FIT SDK merges it (`merge_heart_rates`, the oracle through `fit_heart_rate.py`), by the
/// whole-file read and by the streamed import alike (issue 39, item 5).
@Suite struct FITHeartRateMessagesTests {
    typealias F = FITEncoder.FieldDefinition

    /// A record's time (FIT seconds) and heart rate.
    struct Beat: Equatable, CustomStringConvertible {
        var time: Int
        var bpm: Int?
        var description: String { "\(time): \(bpm.map(String.init) ?? "-")" }
    }

    static func ours(_ file: FITActivityFile) -> [Beat] {
        file.records.map { Beat(time: Int($0.time - fitEpochOffset), bpm: $0.heartRate) }
    }

    static func theirs(_ sdk: FITHeartRateExportTests.Figures) -> [Beat] {
        sdk.records.map { r in Beat(time: r[0].int ?? -1, bpm: r[1].int) }
    }

    static func mean(_ beats: [Beat]) -> Double {
        let v = beats.compactMap(\.bpm)
        return v.isEmpty ? 0 : Double(v.reduce(0, +)) / Double(v.count)
    }

    /// An open-water swim as an HRM-Swim leaves it: 1 Hz records (a position on even seconds
    /// only, surfacing; the wrist's heart rate on a few), then the strap's `hr` messages written
    /// after them: an anchor (timestamp, fractional timestamp, one event timestamp), messages of
    /// 8 beats in 12-bit event timestamps, and after an 8 s silence a second anchor and beats.
    static func strapSwim() -> [UInt8] {
        let t0 = FITTestFiles.t0
        var e = FITEncoder()
        e.define(local: 0, global: 0, [F(0, .enumeration), F(1, .uint16)])
        e.message(local: 0, [4, 1])
        e.define(local: 1, global: 20, [F(253, .uint32), F(0, .sint32), F(1, .sint32), F(3, .uint8)])
        let n = 150
        for k in 0..<n {
            let lat = 47.0 + Double(k) * 0.8 / 111_195
            let position = k % 2 == 0
            e.message(local: 1, [t0 + Int64(k), position ? Int64((lat * FITTestFiles.semicircles).rounded()) : nil,
                                 position ? Int64((8.5 * FITTestFiles.semicircles).rounded()) : nil, k % 10 == 3 ? 99 : nil])
            // Records stamped as the one before (the SDK's second-before rule), twice.
            if k == 41 { for _ in 0..<2 { e.message(local: 1, [t0 + Int64(k), nil, nil, nil]) } }
        }
        e.message(local: 1, [t0 + Int64(n - 1), nil, nil, nil])
        e.define(local: 2, global: 132, [F(253, .uint32), F(0, .uint16), F(9, .uint32), F(6, .uint8)])
        // hr with filtered_bpm (6: 8 x uint8) and event_timestamp_12 (10: 12 bytes, byte).
        e.appendRaw([0x43, 0, 0, 132, 0, 2, 6, 8, 0x02, 10, 12, 0x0D])
        var event: Int64 = 3_000_000  // the strap's clock, 1/1024 s
        var beat = 0
        func group(anchorAt second: Int64, fraction: Int64, messages: Int) {
            e.message(local: 2, [t0 + second, fraction, event, 120])
            for _ in 0..<messages {
                var bpm: [UInt8] = [], packed: [UInt8] = []
                var bits: UInt64 = 0, count = 0
                for _ in 0..<8 {
                    beat += 1
                    event += Int64(400 + (beat * 137) % 900)  // 0.4-1.3 s between beats
                    bpm.append(UInt8(125 + (beat * 7) % 40))
                    bits |= UInt64(event & 0xFFF) << UInt64(12 * (count % 2))
                    count += 1
                    if count % 2 == 0 {
                        for b in 0..<3 { packed.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * b))) }
                        bits = 0
                    }
                }
                e.appendRaw([3] + bpm + packed)
            }
        }
        group(anchorAt: 5, fraction: 16_384, messages: 9)
        event += 8 * 1024
        group(anchorAt: 5 + 8 + (event - 3_000_000) / 1024, fraction: 3_000, messages: 4)
        e.define(local: 4, global: 18, [F(253, .uint32), F(2, .uint32), F(5, .enumeration), F(6, .enumeration), F(7, .uint32),
                                        F(8, .uint32), F(16, .uint8)])
        let ms = Int64(n - 1) * 1000
        e.message(local: 4, [t0 + Int64(n - 1), t0, 5, 18, ms, ms, 140])
        return e.file()
    }

    /// The records' heart rates are the SDK's, record by record; without the `hr` messages
    /// (before issue 39) only the wrist's 15 were kept.
    @Test(.requires(.python(.garminFitSDK)))
    func strapBeatsAreMergedIntoTheRecordsAsTheSDKMergesThem() throws {
        let bytes = Self.strapSwim()
        let sdk = try FITHeartRateExportTests.figures(bytes)
        #expect(sdk.errors.isEmpty, "SDK: \(sdk.errors)")
        let file = try FITActivityFile.read(bytes)
        #expect(file.heartRateMessages.count == 13 * 8 + 2)
        #expect(file.heartRateMessages.skipped == 0)
        expectEqual(Self.ours(file), Self.theirs(sdk))
        let merged = file.records.compactMap(\.heartRate).count
        #expect(merged > 90, "\(merged) records with heart rate")
        // The fixes and the heart-rate records (the import's arrays) carry the same.
        #expect(file.fixes == file.records.compactMap(\.fix))
        let lean = try FITActivityFile.read(bytes, keeping: .fixesOnly)
        #expect(lean.fixes == file.fixes)
        expectEqual(lean.heartRateOnly.map(\.bpm), file.records.filter { $0.fix == nil }.map(\.heartRate))
    }

    /// The streamed import gives what the tracks read whole give, heart rate included.
    @Test func theStreamedImportMergesAsTheWholeFileRead() throws {
        try FITImportStreamingTests.compare(Self.strapSwim(), "strap-swim.fit")
        try FITImportStreamingTests.compare(Self.strapSwim(), "strap-swim.fit", windowSize: 256)
        let w = try FITImport.workouts(FITBytes(Self.strapSwim()), fileName: "strap-swim.fit", activity: nil, settings: MetricsSettings(),
                                       source: "", suffix: { 1 })
        let samples = w[0].recorded.heartRate.samples.compactMap(\.bpm)
        #expect(samples.count > 90, "\(samples.count) heart-rate samples")
    }

    /// A pool swim (no position) keeps its records' heart rate, streamed and read whole.
    @Test func aPoolSwimKeepsItsRecordsHeartRate() throws {
        let bytes = FITTestFiles.poolSwim(active: 30, rests: 10)
        let records = try FITActivityFile.read(bytes).records.compactMap(\.heartRate)
        let w = try FITImport.workouts(FITBytes(bytes), fileName: "pool.fit", activity: nil, settings: MetricsSettings(), source: "",
                                       suffix: { 1 })
        let kept = w[0].recorded.heartRate.samples.compactMap(\.bpm)
        #expect(kept.count == records.count && records.count == 600, "\(kept.count) of \(records.count) heart rates")
        let mean = Double(records.reduce(0, +)) / Double(records.count)
        #expect(abs((w[0].recorded.summary.averageHeartRate ?? 0) - mean) < 0.01, "average \(w[0].recorded.summary.averageHeartRate ?? 0)")
        try FITImportStreamingTests.compare(bytes, "pool.fit")
    }

    /// Every shared FIT file with `hr` messages: each record's heart rate is the SDK's, and the
    /// streamed import gives what the tracks give.
    @Test(.requires(.sharedData, .python(.garminFitSDK)))
    func everySharedFileWithStrapBeatsHasTheSDKsHeartRates() throws {
        var checked: [String] = []
        for url in DeviceCorpusTests.files() where url.lastPathComponent.lowercased().hasSuffix(".fit") {
            let bytes = try SharedData.bytes(url)
            guard let file = try? FITActivityFile.read(bytes), !file.heartRateMessages.isEmpty else { continue }
            let name = url.lastPathComponent
            checked.append(name)
            let sdk = try FITHeartRateExportTests.figures(bytes)
            let ours = Self.ours(file), theirs = Self.theirs(sdk)
            let a = ours.compactMap(\.bpm).count, b = theirs.compactMap(\.bpm).count
            #expect(a == b, "\(name): \(a) records with heart rate, the SDK \(b)")
            #expect(abs(Self.mean(ours) - Self.mean(theirs)) < 0.005, "\(name): mean \(Self.mean(ours)), the SDK \(Self.mean(theirs))")
            #expect(ours == theirs, "\(name): records differ from the SDK's")
            print("\(name): \(file.heartRateMessages.count) beats; \(a) records with heart rate, mean \(Self.mean(ours)) (SDK \(b), \(Self.mean(theirs)))")
            try FITImportStreamingTests.compare(bytes, name)
        }
        #expect(!checked.isEmpty, "no shared FIT file with hr messages")
        print("hr messages merged as the SDK does in: \(checked.joined(separator: ", "))")
    }
}
