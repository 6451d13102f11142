/// The response statuses the web server sends, with their reason phrases (RFC 9110).
public enum HTTPStatus: Int, Sendable, Equatable, CaseIterable {
    case ok = 200
    case noContent = 204
    case seeOther = 303
    case notModified = 304
    case badRequest = 400
    case unauthorized = 401
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case lengthRequired = 411
    case contentTooLarge = 413
    case uriTooLong = 414
    case unsupportedMediaType = 415
    case unprocessableContent = 422
    case requestHeaderFieldsTooLarge = 431
    case internalServerError = 500
    case notImplemented = 501
    case serviceUnavailable = 503
    case httpVersionNotSupported = 505

    public var code: Int { rawValue }

    public var reason: String {
        switch self {
        case .ok: return "OK"
        case .noContent: return "No Content"
        case .seeOther: return "See Other"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .unauthorized: return "Unauthorized"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .lengthRequired: return "Length Required"
        case .contentTooLarge: return "Content Too Large"
        case .uriTooLong: return "URI Too Long"
        case .unsupportedMediaType: return "Unsupported Media Type"
        case .unprocessableContent: return "Unprocessable Content"
        case .requestHeaderFieldsTooLarge: return "Request Header Fields Too Large"
        case .internalServerError: return "Internal Server Error"
        case .notImplemented: return "Not Implemented"
        case .serviceUnavailable: return "Service Unavailable"
        case .httpVersionNotSupported: return "HTTP Version Not Supported"
        }
    }

    /// Whether a response with this status may carry a body (RFC 9110: not 204 or 304).
    public var allowsBody: Bool {
        switch self {
        case .noContent, .notModified: return false
        case .ok, .seeOther, .badRequest, .unauthorized, .forbidden, .notFound, .methodNotAllowed, .requestTimeout,
             .lengthRequired, .contentTooLarge, .uriTooLong, .unsupportedMediaType, .unprocessableContent,
             .requestHeaderFieldsTooLarge, .internalServerError, .notImplemented, .serviceUnavailable, .httpVersionNotSupported:
            return true
        }
    }
}
