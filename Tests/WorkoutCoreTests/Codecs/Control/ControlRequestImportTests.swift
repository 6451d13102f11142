import Testing
@testable import WorkoutCore

/// The request forms of issue 16: import by descriptors, export into a descriptor, edit.
struct ControlRequestImportTests {
    func decode(_ s: String) -> Result<ControlRequest, ProtocolError> { ControlRequest.decode((try? JSON.parse(Array(s.utf8))) ?? .null) }

    @Test func importByDescriptors() throws {
        let r = try decode(#"{"command":"import","descriptors":[{"file":"/h/a.fit.gz","activity":"Trail-Running","title":"Morning"},{"file":"b.gpx"}],"activity":null}"#).get()
        expectEqual(r, .importDescriptors([ImportItem(file: "/h/a.fit.gz", activity: .trailRunning, title: "Morning"), ImportItem(file: "b.gpx")], nil))
        expectEqual(r.descriptorCount, 2)
        try expectEqual(ControlRequest.decode(r.encoded()).get(), r, "round trip")
        expectEqual(r.commandName, "import")
        // Strava's notes, gear and perceived effort travel with the file (issue 25 item 12).
        let full = ControlRequest.importDescriptors([ImportItem(file: "a.gpx", title: "Tempo", notes: "windy\nand wet", gear: "Pegasus 40", effort: 7)], nil)
        try expectEqual(ControlRequest.decode(full.encoded()).get(), full, "round trip")
        guard case .failure(let e) = decode(#"{"command":"import","descriptors":[{"file":"x","effort":11}]}"#) else { Issue.record("effort 11 accepted"); return }
        expectEqual(e.code, "bad_request")
    }

    @Test func importByDescriptorsRefusesBadShapes() {
        for bad in [#"{"command":"import","descriptors":[]}"#, #"{"command":"import","descriptors":[{"name":"x"}]}"#,
                    #"{"command":"import","descriptors":[{"file":"x","title":5}]}"#, #"{"command":"import","descriptors":"x"}"#] {
            guard case .failure(let e) = decode(bad) else { Issue.record("accepted \(bad)"); continue }
            expectEqual(e.code, "bad_request", "\(bad)")
        }
        let many = "[" + Array(repeating: #"{"file":"x"}"#, count: ControlRequest.maxDescriptors + 1).joined(separator: ",") + "]"
        guard case .failure = decode(#"{"command":"import","descriptors":"# + many + "}") else { Issue.record("too many accepted"); return }
        guard case .failure(let e) = decode(#"{"command":"import","descriptors":[{"file":"x","activity":"flying"}]}"#) else { Issue.record("accepted"); return }
        expectEqual(e.code, "unknown_activity")
    }

    @Test func pathFormStillDecodes() throws {
        try expectEqual(decode(#"{"command":"import","files":["/a.gpx"]}"#).get(), .importFiles(["/a.gpx"], nil))
        try expectEqual(decode(#"{"command":"import","files":["/a.gpx"]}"#).get().descriptorCount, 0)
    }

    @Test func exportIntoADescriptor() throws {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        try expectEqual(decode(#"{"command":"export","id":"20261121T093000Z-3f9a","format":"gpx","descriptor":true}"#).get(), .exportTo(id, .gpx))
        try expectEqual(decode(#"{"command":"export","id":"20261121T093000Z-3f9a","format":"gpx"}"#).get(), .export(id, .gpx))
        expectEqual(ControlRequest.exportTo(id, .tcx).descriptorCount, 1)
        try expectEqual(ControlRequest.decode(ControlRequest.exportTo(id, .tcx).encoded()).get(), .exportTo(id, .tcx))
    }

    @Test func edit() throws {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        try expectEqual(decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","activity":"cycling"}"#).get(), .edit(id, WorkoutEdit(activity: .cycling)))
        guard case .failure(let e) = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a"}"#) else { Issue.record("empty edit accepted"); return }
        expectEqual(e.code, "bad_request")
        try expectEqual(decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","title":"Hill reps","gear":null,"effort":8}"#).get(),
                .edit(id, WorkoutEdit(title: .set("Hill reps"), gear: .clear, effort: .set(8))))
        guard case .failure(let e3) = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","effort":0}"#) else { Issue.record("effort 0 accepted"); return }
        #expect(e3.message.contains("1 (very easy) to 10"))
        guard case .failure = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","title":5}"#) else { Issue.record("number title accepted"); return }
        guard case .failure(let e2) = decode(#"{"command":"edit","id":"x y","activity":"cycling"}"#) else { Issue.record("bad id accepted"); return }
        expectEqual(e2.code, "bad_id")
    }
}
