extension Importer {
    /// Whether the first line that is not blank or a `#` comment is an NMEA sentence (`$`/`!`):
    /// a gpsd capture begins with comment lines, often more than the 512 bytes sniffed for
    /// `$G`, and is recognised whatever its file is called.
    static func beginsWithNMEA(_ bytes: [UInt8]) -> Bool {
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "#") {
                guard let nl = bytes[i...].firstIndex(of: 10) else { return false }
                i = nl + 1
            } else if b == 10 || b == 13 || b == 32 || b == 9 {
                i += 1
            } else {
                return b == UInt8(ascii: "$") || b == UInt8(ascii: "!")
            }
        }
        return false
    }
}
