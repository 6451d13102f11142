import Glibc
import WorkoutCore

/// `import PATH...`: the files to import, found by walking folders (recursively), with what
/// a Strava bulk export's `activities.csv` says about each (activity, title, notes, gear, effort), and the entries
/// skipped with a word on why. The client opens the files itself (docs/protocol.md).
public struct ImportFiles: Sendable, Equatable {
    /// A file to import.
    public struct Candidate: Sendable, Equatable {
        public var path: String
        public var activity: ActivityType?
        public var title: String?
        public var notes: String?
        public var gear: String?
        public var effort: Int?

        /// What the request says about the file (text clipped to what a workout keeps).
        public var item: ImportItem {
            func clip(_ s: String?, _ n: Int) -> String? { s.map { String($0.prefix(n)) } }
            return ImportItem(file: path, activity: activity, title: clip(title, WorkoutAnnotation.maxTitleLength),
                              notes: clip(notes, WorkoutAnnotation.maxNotesLength), gear: clip(gear, WorkoutAnnotation.maxTitleLength), effort: effort)
        }
    }
    public var files: [Candidate] = []
    /// Entries of folders left out, with the reason (unreadable, not a track file, ...).
    public var skipped: [(path: String, why: String)] = []

    public static func == (a: ImportFiles, b: ImportFiles) -> Bool {
        a.files == b.files && a.skipped.map(\.path) == b.skipped.map(\.path) && a.skipped.map(\.why) == b.skipped.map(\.why)
    }

    /// File name endings import reads inside folders (named files are sent whatever their name:
    /// the daemon recognises a format by content too).
    public static let extensions = [".gpx", ".tcx", ".fit", ".nmea", ".log", ".txt"]

    public static func isTrackFile(_ name: String) -> Bool {
        var n = Substring(name.lowercased())
        if n.hasSuffix(".gz") { n = n.dropLast(3) }
        return extensions.contains { n.hasSuffix($0) }
    }

    /// Collects the files of `paths` (absolute), folders walked in name order.
    public static func collect(_ paths: [String]) -> ImportFiles {
        var out = ImportFiles()
        for p in paths {
            var st = stat()
            guard stat(p, &st) == 0 else { out.files.append(Candidate(path: p)); continue }  // the open reports why
            if st.st_mode & S_IFMT == S_IFDIR {
                out.walk(p, strava: nil, depth: 0)
            } else {
                out.files.append(Candidate(path: p))
            }
        }
        return out
    }

    /// A folder's entries; `strava` is the nearest `activities.csv` above (and its folder).
    mutating func walk(_ dir: String, strava: (base: String, csv: StravaActivities)?, depth: Int) {
        guard depth < 64 else { skipped.append((dir, "folders nested too deep")); return }
        guard let d = opendir(dir) else { skipped.append((dir, "cannot read the folder: " + errnoText(errno))); return }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name == "." || name == ".." { continue }
            names.append(name)
        }
        closedir(d)
        names.sort()
        var strava = strava
        if names.contains("activities.csv") {
            let csvPath = dir + "/activities.csv"
            switch StravaActivities.read(path: csvPath) {
            case .success(let csv): strava = (dir, csv)
            case .failure(let why): skipped.append((csvPath, why.description))
            }
        }
        for name in names where !name.hasPrefix(".") {
            let path = dir == "/" ? "/" + name : dir + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { skipped.append((path, "cannot read: " + errnoText(errno))); continue }
            var mode = st.st_mode & S_IFMT
            if mode == S_IFLNK {
                guard stat(path, &st) == 0 else { skipped.append((path, "a broken symbolic link")); continue }
                mode = st.st_mode & S_IFMT
                if mode == S_IFDIR { skipped.append((path, "a symbolic link to a folder: not followed")); continue }
            }
            switch mode {
            case S_IFDIR:
                walk(path, strava: strava, depth: depth + 1)
            case S_IFREG:
                if name == "activities.csv", strava?.base == dir { continue }
                guard ImportFiles.isTrackFile(name) else { skipped.append((path, "not a GPX, TCX, FIT or NMEA file")); continue }
                var c = Candidate(path: path)
                if let (base, csv) = strava, let entry = csv.entry(forRelativePath: String(path.dropFirst(base.count + 1))) {
                    c.activity = entry.activity
                    c.title = entry.title.isEmpty ? nil : entry.title
                    c.notes = entry.notes; c.gear = entry.gear; c.effort = entry.effort
                }
                files.append(c)
            default:
                skipped.append((path, "not a regular file"))
            }
        }
    }

    /// Opens a file for the daemon to read: refuses what is not a regular file or is too large
    /// before anything is sent (the daemon checks again). Returns the descriptor or why not.
    public static func open(_ path: String, maxBytes: Int = 512 << 20) -> Result<Int32, OpenRefusal> {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(OpenRefusal(description: "cannot open: " + errnoText(errno))) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = errno; close(fd); return .failure(OpenRefusal(description: "fstat: " + errnoText(e))) }
        let why: String?
        switch st.st_mode & S_IFMT {
        case S_IFREG: why = Int(st.st_size) > maxBytes ? "\(st.st_size) bytes, larger than the import limit of \(maxBytes >> 20) MiB" : nil
        case S_IFDIR: why = "a directory, not a regular file: refused"
        case S_IFIFO: why = "a FIFO (named pipe), not a regular file: refused"
        case S_IFCHR: why = "a character device, not a regular file: refused"
        case S_IFBLK: why = "a block device, not a regular file: refused"
        case S_IFSOCK: why = "a socket, not a regular file: refused"
        default: why = "not a regular file: refused"
        }
        if let why { close(fd); return .failure(OpenRefusal(description: why)) }
        return .success(fd)
    }

    public struct OpenRefusal: Error, Sendable, Equatable, CustomStringConvertible { public var description: String }
}

extension StravaActivities {
    /// Reads and parses an `activities.csv` (at most 64 MiB).
    static func read(path: String) -> Result<StravaActivities, ImportFiles.OpenRefusal> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.init(description: "cannot read: " + errnoText(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < 64 << 20 {
            let n = Glibc.read(fd, &buf, buf.count)
            if n < 0 { if errno == EINTR { continue }; return .failure(.init(description: "cannot read: " + errnoText(errno))) }
            if n == 0 { break }
            bytes += buf[0..<n]
        }
        do { return .success(try StravaActivities.parse(bytes)) } catch { return .failure(.init(description: error.description)) }
    }
}
