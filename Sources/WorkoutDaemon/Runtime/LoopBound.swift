/// A value that belongs to an event loop, as swift-nio's `NIOLoopBound`: it may be carried to
/// any thread (it is `Sendable`), but read or changed only on its loop's thread, checked in
/// debug builds (`EventLoop.preconditionInLoop`). A closure a worker posts back to the loop
/// captures a `LoopBound` of what it touches, so the owner need not claim `@unchecked Sendable`
/// on the strength of a comment.
public struct LoopBound<Value>: @unchecked Sendable {
    // @unchecked: `stored` is reached only through `value`, which checks the loop's thread.
    public let loop: EventLoop
    private var stored: Value

    /// Binds `value` to `loop`; made on the loop's thread (a value made elsewhere could reach
    /// the loop unchecked).
    public init(_ value: Value, loop: EventLoop) {
        loop.preconditionInLoop()
        self.loop = loop
        stored = value
    }

    /// The value, on the loop's thread only.
    public var value: Value {
        get {
            loop.preconditionInLoop()
            return stored
        }
        _modify {
            loop.preconditionInLoop()
            yield &stored
        }
    }
}

/// A reference that does not keep its object alive: a closure posted back to the loop for an
/// object that may be gone by then (`LoopBound(WeakReference(self), loop:)`).
public struct WeakReference<Object: AnyObject> {
    public weak var object: Object?

    public init(_ object: Object) { self.object = object }
}
