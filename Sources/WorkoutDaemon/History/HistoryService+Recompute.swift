import WorkoutCore

/// `recompute ID --set metrics.KEY=VALUE... [--save]`: the overrides are checked on the loop by
/// the configuration's own decoder (a bad key is refused at once, `bad_setting`); loading,
/// measuring again and (with `save`) replacing the workout run on the bulk worker, like `edit`.
extension HistoryService {
    func startRecompute(_ id: WorkoutID, overrides: [MetricsOverride], save: Bool) -> ControlReply {
        var overridden = config.measuring
        do { overridden.apply(try config.metrics.overridden(by: overrides)) } catch {
            return .value(ControlServer.errorReply(ProtocolError(code: "bad_setting", message: error.description)))
        }
        let settings = overridden
        let names = overrides.map { "\($0.key)=\($0.value.serialized())" }
        let units = config.unitsPair
        let store = self.store
        let loop = self.loop
        let me = LoopBound(self, loop: loop)
        return onBulkWorker(id: id, replyCapacity: 4096) { w in
            let r = Recomputation(try store.load(id), settings: settings)
            let notes = Recomputation.notes(overrides, for: r.before)
            if save { try store.replace(r.after) }
            w.value(ControlServer.okReply(RecomputeReply(r, saved: save, settings: names, notes: notes).members + [units]))
            let before = r.before.summary.distanceMeters, after = r.after.summary.distanceMeters
            loop.post {
                me.value.log(HistoryLogEvent.recomputed(id: id.rawValue, settings: names, distanceBefore: before, distanceAfter: after, saved: save))
            }
        }
    }
}
