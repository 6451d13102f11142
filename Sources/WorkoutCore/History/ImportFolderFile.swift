/// Which names in an import folder (config `importFolders`) are workouts to import: GPX, TCX
/// and FIT files, gzipped or not, under their final name. Files still being written (a sync
/// engine's temporary name, a browser's download in progress) and hidden files (a macOS `._`
/// companion on a watch's FAT volume, `.stfolder`) are not, until renamed into place.
public enum ImportFolderFile {
    /// Endings of the formats a folder imports (lowercase; `.gz` may follow).
    public static let extensions = [".gpx", ".tcx", ".fit"]
    /// Endings of downloads and copies still in progress.
    public static let partialEndings = [".part", ".crdownload", ".download", ".partial", ".tmp", ".swp"]

    public static func isImportable(_ name: String) -> Bool {
        guard !name.hasPrefix("."), !HistoryFileName.isInFlight(name) else { return false }
        var lower = Substring(name.lowercased())
        if partialEndings.contains(where: { lower.hasSuffix($0) }) { return false }
        if lower.hasSuffix(".gz") { lower = lower.dropLast(3) }
        return extensions.contains { lower.hasSuffix($0) && lower.count > $0.count }
    }
}
