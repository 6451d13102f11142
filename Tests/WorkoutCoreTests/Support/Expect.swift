import Testing

// `#expect(a == b)` and its kin for the call site's line, each expanded once for the whole target.
//
// Every `#expect` is a macro expansion that the compiler type-checks (the operator inside a
// closure, solved with both operands), lowers and compiles on its own: in this target the 1,929
// `==`, `!=`, `== nil`, `<`, `<=`, `>` and `>=` asserts written as calls of these functions cost
// ~60 s less CPU in CI's build (docs/testing.md). A failure is recorded at the caller's line
// with the values, `(lhs → 3) == (rhs → 4)`, and the comment. Each checks what `#expect(a == b)` checks: the
// same operator (both operands are one type `T`; an optional operand promotes the other, as `==`
// does), and a throwing operand still throws out of the test (`try expectEqual(f(), 1)`).

func expectEqual<T: Equatable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs == rhs, comment(), sourceLocation: sourceLocation)
}

func expectNotEqual<T: Equatable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs != rhs, comment(), sourceLocation: sourceLocation)
}

/// `#expect(value == nil)`: the failure shows the value.
func expectNil<T>(_ value: T?, _ comment: @autoclosure () -> Comment? = nil,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(value == nil, comment(), sourceLocation: sourceLocation)
}

func expectNotNil<T>(_ value: T?, _ comment: @autoclosure () -> Comment? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(value != nil, comment(), sourceLocation: sourceLocation)
}

func expectLess<T: Comparable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs < rhs, comment(), sourceLocation: sourceLocation)
}

func expectLessOrEqual<T: Comparable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs <= rhs, comment(), sourceLocation: sourceLocation)
}

func expectGreater<T: Comparable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs > rhs, comment(), sourceLocation: sourceLocation)
}

func expectGreaterOrEqual<T: Comparable>(_ lhs: T, _ rhs: T, _ comment: @autoclosure () -> Comment? = nil,
                                         sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(lhs >= rhs, comment(), sourceLocation: sourceLocation)
}
