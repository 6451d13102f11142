import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import WorkoutCore

/// Test-only extraction of track points from GPX (`trkseg`/`trkpt`) and TCX (`Track`/
/// `Trackpoint`) files with Foundation's XMLParser, so metrics tests do not depend on the
/// project's readers (written elsewhere). Namespace prefixes are ignored; points without a
/// position are skipped; each `trkseg` or TCX `Track` is one segment.
final class TrackFileExtractor: NSObject, XMLParserDelegate {
    struct Point { var lat: Double; var lon: Double; var time: Double?; var ele: Double?; var hr: Int? }

    private(set) var segments: [[Point]] = []
    private var current: Point?
    private var text = ""
    private var path: [String] = []

    static func segments(of url: URL) throws -> [[Point]] {
        let parser = XMLParser(data: try Data(contentsOf: url))
        parser.shouldProcessNamespaces = true
        let x = TrackFileExtractor()
        parser.delegate = x
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return x.segments.filter { !$0.isEmpty }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        path.append(local)
        text = ""
        switch local {
        case "trkseg", "Track": segments.append([])
        case "trkpt":
            current = Point(lat: Double(attributes["lat"] ?? "") ?? .nan, lon: Double(attributes["lon"] ?? "") ?? .nan)
        case "Trackpoint": current = Point(lat: .nan, lon: .nan)
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        path.removeLast()
        if current != nil {
            switch local {
            case "LatitudeDegrees": current?.lat = Double(value) ?? .nan
            case "LongitudeDegrees": current?.lon = Double(value) ?? .nan
            case "ele", "AltitudeMeters": current?.ele = Double(value)
            case "time", "Time": current?.time = ISO8601.parse(value)
            case "Value" where path.last == "HeartRateBpm": current?.hr = Int(value)
            case "hr": current?.hr = Int(value)
            case "trkpt", "Trackpoint":
                if let p = current, p.lat.isFinite, p.lon.isFinite, !segments.isEmpty { segments[segments.count - 1].append(p) }
                current = nil
            default: break
            }
        }
        text = ""
    }
}
