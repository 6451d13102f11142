extension Config {
    /// Top-level keys whose values differ (for the reload log line).
    public func changedKeys(to new: Config) -> [String] {
        var out: [String] = []
        if feeds != new.feeds { out.append("feeds") }
        if defaultActivity != new.defaultActivity { out.append("defaultActivity") }
        if journalFlushSeconds != new.journalFlushSeconds { out.append("journalFlushSeconds") }
        if statusLogSeconds != new.statusLogSeconds { out.append("statusLogSeconds") }
        if autoResumeAfterRestore != new.autoResumeAfterRestore { out.append("autoResumeAfterRestore") }
        if timeZone != new.timeZone { out.append("timeZone") }
        if weightKg != new.weightKg { out.append("weightKg") }
        if units != new.units { out.append("units") }
        if metrics != new.metrics { out.append("metrics") }
        if streaks != new.streaks { out.append("streaks") }
        if log != new.log { out.append("log") }
        if limits != new.limits { out.append("limits") }
        if sensors != new.sensors { out.append("sensors") }
        if ftpWatts != new.ftpWatts { out.append("ftpWatts") }
        if thresholdHeartRate != new.thresholdHeartRate { out.append("thresholdHeartRate") }
        if thresholdPaceSecondsPerKm != new.thresholdPaceSecondsPerKm { out.append("thresholdPaceSecondsPerKm") }
        if age != new.age { out.append("age") }
        if sex != new.sex { out.append("sex") }
        if heartRate != new.heartRate { out.append("heartRate") }
        if sleepInhibitor != new.sleepInhibitor { out.append("sleepInhibitor") }
        if habits != new.habits { out.append("habits") }
        if hooks != new.hooks { out.append("hooks") }
        if notifications != new.notifications { out.append("notifications") }
        if historyDir != new.historyDir { out.append("historyDir") }
        if importFolders != new.importFolders { out.append("importFolders") }
        if web != new.web { out.append("web") }
        return out
    }
}
