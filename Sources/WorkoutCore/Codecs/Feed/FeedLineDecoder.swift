/// Turns lines from a source into fixes. One per connection (decoders keep epoch state).
public protocol FeedLineDecoder {
    /// Decodes one line; returns the fixes it completed. Bad lines are counted, never thrown.
    mutating func decode(line: UnsafeBufferPointer<UInt8>) -> [Fix]
    /// Input rejected so far, by reason.
    var rejected: [String: Int] { get }
    /// Satellites used, when the source reports them.
    var satellites: Int? { get }
}
