#!/usr/bin/env python3
"""A slippy-map tile server on loopback for the browser test of `web.tiles`: answers
GET /Z/X/Y.png with a small PNG (a flat tint, darker with the zoom) and 404 otherwise, prints
its port on the first line, then one line per tile asked for ("Z/X/Y"), flushed. Standard
library only; stops when its standard input closes."""
import http.server, re, struct, sys, threading, zlib


def png(shade):
    raw = b"".join(b"\0" + bytes([shade, shade, 220]) * 16 for _ in range(16))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


class Tiles(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        m = re.fullmatch(r"/(\d+)/(\d+)/(\d+)\.png", self.path)
        if not m:
            self.send_error(404)
            return
        z, x, y = (int(g) for g in m.groups())
        if x >= 1 << z or y >= 1 << z:
            self.send_error(404)
            return
        print("%d/%d/%d" % (z, x, y), flush=True)
        body = png(max(0, 235 - 10 * z))
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Tiles)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
