import WorkoutCore

extension HistoryService {
    /// `charts`: a workout's channels as columns for the terminal (`show --charts`), read and
    /// computed on the bulk worker.
    func startCharts(_ id: WorkoutID, columns: Int) -> ControlReply {
        let store = self.store
        let units = UnitFormatter(config.units)
        return onBulkWorker(id: id, replyCapacity: 8192) { w in
            let workout = try store.load(id)
            let charts = TerminalChart.charts(of: workout, units: units, columns: columns)
            w.value(ControlServer.okReply([("charts", .array(charts.map { $0.json() }))]))
        }
    }
}
