import func Glibc.cos

/// Every route at once as an inline SVG (`data-chart="heatmap"`): each route a thin, see-through
/// line in its activity's colour, so the ways taken often show darkest. An equirectangular view
/// (longitude scaled by the cosine of the middle latitude) fitted to the routes, with the 1 %
/// of points farthest out on each side left out of the fit so one trip abroad does not shrink
/// home to a dot. No tiles: drawn from the history alone.
public struct HeatmapChart: Sendable {
    public var routes: [RouteSketch]

    public init(routes: [RouteSketch]) { self.routes = routes }

    /// The view's bounds: min and max latitude and longitude.
    func bounds() -> (lat: ClosedRange<Double>, lon: ClosedRange<Double>)? {
        var lats: [Float] = [], lons: [Float] = []
        for r in routes { for p in r.pieces { for q in p { lats.append(q.x); lons.append(q.y) } } }
        guard lats.count >= 2 else { return nil }
        lats.sort(); lons.sort()
        let cut = lats.count / 100
        let lat = Double(lats[cut])...Double(lats[lats.count - 1 - cut]), lon = Double(lons[cut])...Double(lons[lons.count - 1 - cut])
        return (lat, lon)
    }

    public func render(into w: inout HTMLWriter) {
        let width = 720.0, height = 480.0, pad = 12.0
        w.raw("<svg class=\"heatmap\" data-chart=\"heatmap\" viewBox=\"0 0 "); w.coordinate(width); w.raw(" "); w.coordinate(height)
        w.raw("\" role=\"img\" aria-label=\"Every route, "); w.int(routes.count); w.raw(routes.count == 1 ? " workout\">" : " workouts\">")
        w.raw("<rect class=\"bg\" width=\""); w.coordinate(width); w.raw("\" height=\""); w.coordinate(height); w.raw("\" fill=\"#f8fafc\"/>")
        guard let b = bounds() else { w.raw("</svg>"); return }
        let midLat = (b.lat.lowerBound + b.lat.upperBound) / 2
        let kx = cos(midLat * .pi / 180)
        let spanX = max((b.lon.upperBound - b.lon.lowerBound) * kx, 1e-4), spanY = max(b.lat.upperBound - b.lat.lowerBound, 1e-4)
        let scale = min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY)
        let ox = (width - spanX * scale) / 2, oy = (height - spanY * scale) / 2
        w.raw("<g fill=\"none\" stroke-width=\"1.5\" stroke-opacity=\"0.35\" stroke-linejoin=\"round\" stroke-linecap=\"round\">")
        for r in routes {
            w.raw("<path stroke=\""); w.raw(PageLayout.colour(r.activity)); w.raw("\" d=\"")
            for p in r.pieces {
                for (k, q) in p.enumerated() {
                    w.raw(k == 0 ? "M" : "L")
                    w.coordinate(ox + (Double(q.y) - b.lon.lowerBound) * kx * scale); w.raw(" ")
                    w.coordinate(height - oy - (Double(q.x) - b.lat.lowerBound) * scale)
                }
            }
            w.raw("\"/>")
        }
        w.raw("</g></svg>")
    }
}
