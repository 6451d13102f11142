/// What every page is rendered with: the user's units, zone and week, the present time, and
/// the token the pages' forms post back (changes are POSTs carrying it). Pure input: the
/// shell fills it in per request.
public struct WebPageContext: Sendable {
    public var units: UnitFormatter
    /// Local days, weeks (`settings.weekStart`) and the zone.
    public var calendar: StreakCalculator
    public var now: Double
    public var formToken: String
    public var version: String
    /// The base map under routes (`web.tiles`); nil: none, nothing fetched from anywhere.
    public var tiles: TileLayer?

    public init(units: UnitFormatter, calendar: StreakCalculator, now: Double, formToken: String, version: String, tiles: TileLayer? = nil) {
        self.units = units; self.calendar = calendar; self.now = now; self.formToken = formToken; self.version = version
        self.tiles = tiles
    }

    public var zone: ZoneRules { calendar.zone }
}

/// The pages' menu entries.
public enum WebSection: Sendable, CaseIterable {
    case history, calendar, records, fitness, power, heatmap, live

    var path: StaticString {
        switch self {
        case .history: return "/"
        case .calendar: return "/calendar"
        case .records: return "/records"
        case .fitness: return "/fitness"
        case .power: return "/power"
        case .heatmap: return "/heatmap"
        case .live: return "/live"
        }
    }

    var title: StaticString {
        switch self {
        case .history: return "History"
        case .calendar: return "Calendar"
        case .records: return "Records"
        case .fitness: return "Fitness"
        case .power: return "Power"
        case .heatmap: return "Heat map"
        case .live: return "Live"
        }
    }
}

/// The frame around every page: head (style sheet, icon, script, all from the daemon), the
/// top bar with the menu, and the footer.
public enum PageLayout {
    public static func begin(_ w: inout HTMLWriter, title: String, section: WebSection?, live: Bool = false, refreshWithoutScript: Int? = nil) {
        w.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
        w.raw("<title>"); w.text(title); w.raw(" · workoutd</title>")
        w.raw("<link rel=\"stylesheet\" href=\"/static/app.css\"><link rel=\"icon\" href=\"/static/icon.svg\" type=\"image/svg+xml\">")
        w.raw("<script src=\"/static/app.js\" defer></script>")
        if let s = refreshWithoutScript { w.raw("<noscript><meta http-equiv=\"refresh\" content=\""); w.int(s); w.raw("\"></noscript>") }
        w.raw("</head><body><header class=\"top\"><a class=\"brand\" href=\"/\">")
        w.raw("<svg viewBox=\"0 0 64 64\" aria-hidden=\"true\"><rect width=\"64\" height=\"64\" rx=\"14\" fill=\"#ea580c\"/><path d=\"M10 42 L22 30 L31 37 L42 20 L54 30\" fill=\"none\" stroke=\"#fff\" stroke-width=\"6\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/></svg>workoutd</a><nav>")
        for s in WebSection.allCases {
            w.raw("<a href=\""); w.raw(s.path); w.raw("\"")
            if s == section { w.raw(" class=\"on\"") }
            w.raw(">")
            if s == .live, live { w.raw("<span class=\"livedot\"></span>") }
            w.raw(s.title); w.raw("</a>")
        }
        w.raw("</nav></header><main>")
    }

    public static func end(_ w: inout HTMLWriter, _ context: WebPageContext) {
        w.raw("</main><footer>workoutd "); w.text(context.version)
        w.raw(" · served from this machine; nothing leaves it · times in "); w.text(context.zone.name); w.raw("</footer></body></html>")
    }

    /// A page with a heading and a message (not found, refused edits ...).
    public static func message(title: String, text: String, context: WebPageContext) -> [UInt8] {
        var w = HTMLWriter(capacity: 2048)
        begin(&w, title: title, section: nil)
        w.raw("<h1>"); w.text(title); w.raw("</h1><div class=\"card\"><p>"); w.text(text)
        w.raw("</p><p><a href=\"/\">Back to the history</a></p></div>")
        end(&w, context)
        return w.bytes
    }

    /// The activity's colour (for bars and dots), stable per activity.
    public static func colour(_ a: ActivityType) -> StaticString {
        switch a {
        case .running, .trailRunning, .treadmillRunning: return "#ea580c"
        case .cycling, .mountainBiking, .indoorCycling: return "#2563eb"
        case .walking: return "#16a34a"
        case .hiking: return "#a16207"
        case .openWaterSwimming, .poolSwimming: return "#0891b2"
        case .rowing, .indoorRowing, .kayaking, .standUpPaddling, .sailing: return "#0d9488"
        case .crossCountrySkiing, .downhillSkiing, .snowboarding, .skating, .inlineSkating: return "#7c3aed"
        case .strength, .hiit, .elliptical, .climbing: return "#db2777"
        case .yoga, .dance, .other, .transition: return "#64748b"
        }
    }
}
