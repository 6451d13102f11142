extension MetricsSettings {
    /// The recorder's settings from the configuration (thresholds per activity still come from
    /// the activity type inside the recorder).
    public init(config: Config) {
        self.init()
        minimumFixMode = config.metrics.minFixMode >= 3 ? .threeD : .twoD
        maximumHorizontalAccuracy = config.metrics.maxHorizontalAccuracyMeters
        warmUpCount = config.metrics.warmUpFixes
        jumpThreshold = config.metrics.jumpMeters
        signalLostTimeout = config.metrics.signalLostSeconds
        autoPauseDelay = config.metrics.autoPauseSeconds > 0 ? config.metrics.autoPauseSeconds : nil
        autoLapDistance = config.metrics.autoLapMeters
        bodyWeightKilograms = config.weightKg
        splitUnit = config.units == .imperial ? .mile : .kilometer
        heartRateZones = config.heartRateZones
        age = config.age
        sex = config.sex
    }
}
