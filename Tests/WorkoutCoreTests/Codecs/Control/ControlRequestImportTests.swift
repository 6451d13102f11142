import Testing
@testable import WorkoutCore

/// The request forms of issue 16: import by descriptors, export into a descriptor, edit.
struct ControlRequestImportTests {
    func decode(_ s: String) -> Result<ControlRequest, ProtocolError> { ControlRequest.decode((try? JSON.parse(Array(s.utf8))) ?? .null) }

    @Test func importByDescriptors() throws {
        let r = try decode(#"{"command":"import","descriptors":[{"file":"/h/a.fit.gz","activity":"Trail-Running","title":"Morning"},{"file":"b.gpx"}],"activity":null}"#).get()
        #expect(r == .importDescriptors([ImportItem(file: "/h/a.fit.gz", activity: .trailRunning, title: "Morning"), ImportItem(file: "b.gpx")], nil))
        #expect(r.descriptorCount == 2)
        #expect(try ControlRequest.decode(r.encoded()).get() == r, "round trip")
        #expect(r.commandName == "import")
        // Strava's notes, gear and perceived effort travel with the file (issue 25 item 12).
        let full = ControlRequest.importDescriptors([ImportItem(file: "a.gpx", title: "Tempo", notes: "windy\nand wet", gear: "Pegasus 40", effort: 7)], nil)
        #expect(try ControlRequest.decode(full.encoded()).get() == full, "round trip")
        guard case .failure(let e) = decode(#"{"command":"import","descriptors":[{"file":"x","effort":11}]}"#) else { Issue.record("effort 11 accepted"); return }
        #expect(e.code == "bad_request")
    }

    @Test func importByDescriptorsRefusesBadShapes() {
        for bad in [#"{"command":"import","descriptors":[]}"#, #"{"command":"import","descriptors":[{"name":"x"}]}"#,
                    #"{"command":"import","descriptors":[{"file":"x","title":5}]}"#, #"{"command":"import","descriptors":"x"}"#] {
            guard case .failure(let e) = decode(bad) else { Issue.record("accepted \(bad)"); continue }
            #expect(e.code == "bad_request", "\(bad)")
        }
        let many = "[" + Array(repeating: #"{"file":"x"}"#, count: ControlRequest.maxDescriptors + 1).joined(separator: ",") + "]"
        guard case .failure = decode(#"{"command":"import","descriptors":"# + many + "}") else { Issue.record("too many accepted"); return }
        guard case .failure(let e) = decode(#"{"command":"import","descriptors":[{"file":"x","activity":"flying"}]}"#) else { Issue.record("accepted"); return }
        #expect(e.code == "unknown_activity")
    }

    @Test func pathFormStillDecodes() throws {
        #expect(try decode(#"{"command":"import","files":["/a.gpx"]}"#).get() == .importFiles(["/a.gpx"], nil))
        #expect(try decode(#"{"command":"import","files":["/a.gpx"]}"#).get().descriptorCount == 0)
    }

    @Test func exportIntoADescriptor() throws {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        #expect(try decode(#"{"command":"export","id":"20261121T093000Z-3f9a","format":"gpx","descriptor":true}"#).get() == .exportTo(id, .gpx))
        #expect(try decode(#"{"command":"export","id":"20261121T093000Z-3f9a","format":"gpx"}"#).get() == .export(id, .gpx))
        #expect(ControlRequest.exportTo(id, .tcx).descriptorCount == 1)
        #expect(try ControlRequest.decode(ControlRequest.exportTo(id, .tcx).encoded()).get() == .exportTo(id, .tcx))
    }

    @Test func edit() throws {
        let id = WorkoutID(rawValue: "20261121T093000Z-3f9a")!
        #expect(try decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","activity":"cycling"}"#).get() == .edit(id, WorkoutEdit(activity: .cycling)))
        guard case .failure(let e) = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a"}"#) else { Issue.record("empty edit accepted"); return }
        #expect(e.code == "bad_request")
        #expect(try decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","title":"Hill reps","gear":null,"effort":8}"#).get()
                == .edit(id, WorkoutEdit(title: .set("Hill reps"), gear: .clear, effort: .set(8))))
        guard case .failure(let e3) = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","effort":0}"#) else { Issue.record("effort 0 accepted"); return }
        #expect(e3.message.contains("1 (very easy) to 10"))
        guard case .failure = decode(#"{"command":"edit","id":"20261121T093000Z-3f9a","title":5}"#) else { Issue.record("number title accepted"); return }
        guard case .failure(let e2) = decode(#"{"command":"edit","id":"x y","activity":"cycling"}"#) else { Issue.record("bad id accepted"); return }
        #expect(e2.code == "bad_id")
    }
}
