import Glibc
import WorkoutCore

/// Import, export and edit: the loop decodes the request and posts the job to the bulk worker;
/// results come back as posted closures and are streamed to the client (docs/protocol.md).
extension HistoryService {
    /// `import` by descriptors (events per file, then counts) or by paths (one reply with every
    /// result, as before).
    func startImport(_ items: [ImportBatch.Item], activity: ActivityType?, streamed: Bool) -> ControlReply {
        let pending = PendingReply(), later = LoopBound(pending, loop: self.loop)
        let batch = ImportBatch(items: items, activity: activity, settings: config.measuring, defaultActivity: config.defaultActivity)
        let store = self.store
        let loop = self.loop
        let cancel = pending.cancel
        let stages = importStages
        let me = LoopBound(self, loop: loop)
        bulk.async {
            let t0 = loop.now()
            var all: [ImportBatch.Result] = []
            let cancelled = batch.run(store: store, stages: stages, cancel: cancel) { group in
                all += group
                let lines = streamed ? group.map { r -> [UInt8] in
                    var w = JSONWriter(capacity: 160)
                    w.value(r.json(event: true))
                    return w.bytes
                } : []
                loop.post {
                    me.value.logImportResults(group)
                    for l in lines { later.value.send(event: l) }
                }
            }
            let counts = ImportBatch.Counts(all)
            let reply: JSON
            if streamed {
                reply = ControlServer.okReply([("imported", .int(counts.imported)), ("duplicates", .int(counts.duplicates)),
                                               ("errors", .int(counts.errors)), ("cancelled", .bool(cancelled))])
            } else {
                reply = ControlServer.okReply([("results", .array(all.map { $0.json() }))])
            }
            var w = JSONWriter(capacity: 256)
            w.value(reply)
            let encoded = w.bytes
            let seconds = loop.now() - t0
            loop.post {
                let service = me.value
                service.log(HistoryLogEvent.importFinished(imported: counts.imported, duplicates: counts.duplicates, errors: counts.errors,
                                                           cancelled: cancelled, seconds: seconds))
                later.value.finish(.encodedSuccess(encoded))
                service.onImported()
            }
        }
        return .pending(pending)
    }

    /// The log lines of an import's results (each file imported or failed, and its warnings).
    func logImportResults(_ group: [ImportBatch.Result]) {
        for r in group {
            switch r.kind {
            case .imported:
                log(DaemonLogEvent.imported(file: r.file, id: r.id?.rawValue ?? ""))
                for w in r.warnings { log(HistoryLogEvent.importWarning(file: r.file, id: r.id?.rawValue, warning: w)) }
            case .duplicate: break
            case .error: log(DaemonLogEvent.importFailed(file: r.file, reason: r.error ?? ""))
            }
        }
    }

    /// `export`: the file encoded on the worker and written into the client's descriptor, or
    /// (older form) returned as `content` in the reply. A regular file is written on the worker;
    /// a pipe or socket by `exportWriter` on the loop, as its reader takes it, so a reader that
    /// stops reading never holds the worker (the reply comes after the last byte).
    func startExport(_ id: WorkoutID, _ format: ExportFormat, into fd: Int32?) -> ControlReply {
        guard let fd, BulkWorker.isPipeOrSocket(fd) else { return exportOnWorker(id, format, into: fd) }
        let store = self.store
        let loop = self.loop
        let pending = PendingReply(), later = LoopBound(pending, loop: loop)
        let me = LoopBound(self, loop: loop)
        bulk.async {
            let bytes: [UInt8]
            do {
                let workout = try store.load(id)
                if let refusal = Exporter.refusal(workout, format) { throw refusal }
                bytes = Exporter.bytes(workout, format)
            } catch {
                close(fd)
                var w = JSONWriter(capacity: 256)
                w.value(HistoryService.bulkErrorReply(error, id: id))
                let line = w.bytes
                loop.post { later.value.finish(.encodedSuccess(line)) }
                return
            }
            loop.post {
                let service = me.value, pending = later.value
                service.exportWriter.start(bytes, into: fd) { result in
                    switch result {
                    case .success(let n):
                        var w = JSONWriter(capacity: 64)
                        ExportReply(format: format, body: .written(bytes: n)).write(to: &w)
                        pending.finish(.encodedSuccess(w.bytes))
                    case .failure(let failure):
                        service.log(HistoryLogEvent.exportFailed(id: id.rawValue, reason: failure.description))
                        pending.finish(.value(ControlServer.errorReply(ProtocolError(code: "io_error", message: failure.description))))
                    }
                }
            }
        }
        return .pending(pending)
    }

    /// `export` into a regular file (written at once) or as `content` in the reply.
    private func exportOnWorker(_ id: WorkoutID, _ format: ExportFormat, into fd: Int32?) -> ControlReply {
        let store = self.store
        return onBulkWorker(id: id, replyCapacity: 256) { w in
            defer { if let fd { close(fd) } }
            let workout = try store.load(id)
            if let refusal = Exporter.refusal(workout, format) { throw refusal }
            if let fd {
                // Written a piece at a time as it is made (GPX: 1 MB at a time, never whole);
                // after a failed write the rest is not written.
                var failure: (any Error)?
                let count = Exporter.write(workout, format) { raw in
                    guard failure == nil else { return }
                    do { try BulkWorker.write(raw, to: fd) } catch { failure = error }
                }
                if let failure { throw failure }
                ExportReply(format: format, body: .written(bytes: count)).write(to: &w)
            } else {
                ExportReply(format: format, body: .content(Exporter.export(workout, format), base64: format.isBinary)).write(to: &w)
            }
        }
    }

    /// `edit ID --activity A`: the saved workout recomputed from its points with the new
    /// activity (its speed limits, pace or speed, calories, best efforts), then replaced.
    func startEdit(_ id: WorkoutID, _ edit: WorkoutEdit) -> ControlReply {
        let store = self.store
        let loop = self.loop
        let settings = config.measuring
        let units = config.unitsPair
        let me = LoopBound(self, loop: loop)
        return onBulkWorker(id: id, replyCapacity: 1024) { w in
            let old = try store.load(id)
            let new = Importer.edited(old, applying: edit, settings: settings)
            try store.replace(new)
            w.value(ControlServer.okReply([("workout", new.summary.json()), units]))
            loop.post { me.value.log(HistoryLogEvent.edited(id: id.rawValue, fields: edit.fieldNames, from: old.activity, to: new.activity)) }
        }
    }

    /// Runs `work` on the bulk worker and answers with the one reply it writes; an error it
    /// throws is answered in words (`bulkErrorReply`). Export, edit and recompute.
    func onBulkWorker(id: WorkoutID, replyCapacity: Int, _ work: @escaping @Sendable (inout JSONWriter) throws -> Void) -> ControlReply {
        let loop = self.loop
        let pending = PendingReply(), later = LoopBound(pending, loop: loop)
        bulk.async {
            var w = JSONWriter(capacity: replyCapacity)
            do { try work(&w) } catch { w = JSONWriter(capacity: 256); w.value(HistoryService.bulkErrorReply(error, id: id)) }
            let line = w.bytes
            loop.post { later.value.finish(.encodedSuccess(line)) }
        }
        return .pending(pending)
    }

    /// The reply to a failed export, edit or recompute.
    static func bulkErrorReply(_ error: any Error, id: WorkoutID) -> JSON {
        switch error {
        case let e as ExportRefusal: return ControlServer.errorReply(ProtocolError(code: e.code, message: e.description))
        case let e as ImportReader.Refusal: return ControlServer.errorReply(ProtocolError(code: "io_error", message: e.description))
        default: return HistoryService.storeErrorReply(error, id: id)
        }
    }
}

extension ImportBatch {
    /// How many files of a batch went which way.
    struct Counts {
        var imported = 0, duplicates = 0, errors = 0
        init(_ results: [Result]) {
            for r in results {
                switch r.kind {
                case .imported: imported += 1
                case .duplicate: duplicates += 1
                case .error: errors += 1
                }
            }
        }
    }
}
