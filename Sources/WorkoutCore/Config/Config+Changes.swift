extension Config {
    /// The configuration's top-level keys, spelled as in config.json (docs/config.md). A reload
    /// reports changes by these names; each has one rule for what a reload does with it
    /// (the daemon's services apply it, or name it as waiting for the next start).
    public enum Key: String, CaseIterable, Sendable {
        case feeds, defaultActivity, journalFlushSeconds, statusLogSeconds, autoResumeAfterRestore, timeZone, weightKg
        case units, metrics, streaks, log, limits, sensors, ftpWatts, thresholdHeartRate, thresholdPaceSecondsPerKm
        case age, sex, heartRate, sleepInhibitor, habits, hooks, notifications, historyDir, importFolders, web
    }

    /// Whether `key`'s value differs between this configuration and `other`.
    public func differs(from other: Config, in key: Key) -> Bool {
        switch key {
        case .feeds: return feeds != other.feeds
        case .defaultActivity: return defaultActivity != other.defaultActivity
        case .journalFlushSeconds: return journalFlushSeconds != other.journalFlushSeconds
        case .statusLogSeconds: return statusLogSeconds != other.statusLogSeconds
        case .autoResumeAfterRestore: return autoResumeAfterRestore != other.autoResumeAfterRestore
        case .timeZone: return timeZone != other.timeZone
        case .weightKg: return weightKg != other.weightKg
        case .units: return units != other.units
        case .metrics: return metrics != other.metrics
        case .streaks: return streaks != other.streaks
        case .log: return log != other.log
        case .limits: return limits != other.limits
        case .sensors: return sensors != other.sensors
        case .ftpWatts: return ftpWatts != other.ftpWatts
        case .thresholdHeartRate: return thresholdHeartRate != other.thresholdHeartRate
        case .thresholdPaceSecondsPerKm: return thresholdPaceSecondsPerKm != other.thresholdPaceSecondsPerKm
        case .age: return age != other.age
        case .sex: return sex != other.sex
        case .heartRate: return heartRate != other.heartRate
        case .sleepInhibitor: return sleepInhibitor != other.sleepInhibitor
        case .habits: return habits != other.habits
        case .hooks: return hooks != other.hooks
        case .notifications: return notifications != other.notifications
        case .historyDir: return historyDir != other.historyDir
        case .importFolders: return importFolders != other.importFolders
        case .web: return web != other.web
        }
    }

    /// Top-level keys whose values differ, in `Key` order (the reload's reply and log line).
    public func changedKeys(to new: Config) -> [Key] {
        Key.allCases.filter { differs(from: new, in: $0) }
    }
}
