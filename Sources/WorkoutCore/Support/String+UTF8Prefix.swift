extension String {
    /// The longest prefix of whole characters within `maxBytes` bytes of UTF-8.
    public func prefix(utf8Bytes maxBytes: Int) -> Substring {
        var kept = 0
        var end = startIndex
        for i in indices {
            let next = index(after: i)
            let size = utf8.distance(from: i, to: next)
            if kept + size > maxBytes { break }
            kept += size
            end = next
        }
        return self[..<end]
    }
}
