#!/usr/bin/env python3
"""Loads pages in one headless Chromium over the DevTools protocol (--remote-debugging-pipe)
and prints one JSON object per page: the HTTP status of its document, its console errors
(console.error, uncaught exceptions, CSP violations and other browser log errors), and every
request that went anywhere but the page's own origin. Optionally a full-page screenshot, and
a hover over the first chart (the label the page's script shows).

    cdp_pages.py --chromium PATH [--screenshots DIR] [--width 1280] [--hover] [--allow ORIGIN] URL [URL...]

`--allow ORIGIN` (a loopback test server, e.g. the tile server of `web.tiles`): requests to it
are listed under "allowed" with the count that loaded, not under "foreign".

Nothing can leave the machine even if a page asked: every name resolution but loopback fails
(--host-resolver-rules), and every request to anything but loopback goes to a proxy on a closed
loopback port (--proxy-server; loopback bypasses proxies), IP literals and WebSockets included.
Standard library only."""
import argparse, base64, fcntl, json, os, shutil, subprocess, sys, tempfile, time
from urllib.parse import urlsplit


class Browser:
    def __init__(self, chromium, width):
        self.profile = tempfile.mkdtemp(prefix="wcdp.")
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        def child():
            a = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(res_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        args = [chromium, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
                "--proxy-server=http://127.0.0.1:9", "--disable-breakpad", "--disable-crash-reporter",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
                "--disable-gpu", "--window-size=%d,900" % width, "about:blank"]
        self.proc = subprocess.Popen(args, preexec_fn=child, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(res_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read_one(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no message from chromium")
            import select
            r, _, _ = select.select([self.res_r], [], [], left)
            if not r:
                continue
            chunk = os.read(self.res_r, 1 << 20)
            if not chunk:
                raise EOFError("chromium closed its pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=30):
        mid = self.send(method, params, session)
        deadline = time.time() + timeout
        while True:
            m = self.read_one(deadline)
            if m.get("id") == mid:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, session, timeout):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == name and m.get("sessionId") == session:
                del self.events[i]
                return m
        while True:
            m = self.read_one(deadline)
            if m.get("method") == name and m.get("sessionId") == session:
                return m
            self.events.append(m)

    def drain(self, seconds):
        deadline = time.time() + seconds
        try:
            while True:
                self.events.append(self.read_one(deadline))
        except TimeoutError:
            pass

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def check(browser, session, url, shots, width, hover, index, allow=()):
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
    browser.events = []
    started = time.time()
    browser.call("Page.navigate", {"url": url}, session)
    browser.wait_event("Page.loadEventFired", session, 30)
    browser.drain(0.4)  # late requests (favicon, the live page's event stream), console output
    status, errors, foreign, requests, allowed, loaded = None, [], [], 0, [], 0
    allowed_ids = set()
    document = None
    for m in browser.events:
        if m.get("sessionId") != session:
            continue
        p = m.get("params", {})
        meth = m.get("method")
        if meth == "Network.requestWillBeSent":
            requests += 1
            u = p.get("request", {}).get("url", "")
            if any(u.startswith(a + "/") for a in allow):
                allowed.append(u)
                allowed_ids.add(p.get("requestId"))
            elif not (u.startswith(origin + "/") or u == origin or u.startswith("data:") or u.startswith("about:")):
                foreign.append(u)
            if p.get("type") == "Document":
                document = p.get("requestId")
        elif meth == "Network.webSocketCreated":
            u = p.get("url", "")
            if urlsplit(u).netloc != urlsplit(origin).netloc:
                foreign.append(u)
        elif meth == "Network.responseReceived" and p.get("type") == "Document":
            status = p.get("response", {}).get("status")
        elif meth == "Network.loadingFinished" and p.get("requestId") in allowed_ids:
            loaded += 1
        elif meth == "Runtime.exceptionThrown":
            errors.append("exception: " + json.dumps(p.get("exceptionDetails", {}).get("exception", {}).get("description", p.get("exceptionDetails", {}).get("text"))))
        elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            errors.append("console.%s: %s" % (p.get("type"), " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
        elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
            errors.append("log: " + p["entry"].get("text", "") + " " + p["entry"].get("url", ""))
        elif meth == "Network.loadingFailed" and not p.get("canceled"):
            errors.append("failed request: " + p.get("errorText", ""))
    out = {"url": url, "status": status, "errors": errors, "foreign": foreign, "requests": requests,
           "allowed": allowed, "allowedLoaded": loaded,
           "seconds": round(time.time() - started, 3)}
    r = browser.call("Runtime.evaluate", {"expression": "JSON.stringify({charts: Array.from(document.querySelectorAll('svg[data-chart]')).map(e => e.dataset.chart), title: document.title, bytes: document.documentElement.outerHTML.length})", "returnByValue": True}, session)
    out.update(json.loads(r["result"]["value"]))
    if hover and out["charts"]:
        box = browser.call("Runtime.evaluate", {"expression": "(() => { const s = document.querySelector('svg.chart'); if (!s) return null; s.scrollIntoView(); const r = s.getBoundingClientRect(); return JSON.stringify([r.left + r.width / 2, r.top + r.height / 2]); })()", "returnByValue": True}, session)
        if box["result"].get("value"):
            x, y = json.loads(box["result"]["value"])
            browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y}, session)
            browser.drain(0.2)
            label = browser.call("Runtime.evaluate", {"expression": "(() => { const l = document.querySelector('.hoverlabel'); return l && l.getAttribute('visibility') === 'visible' ? l.textContent : null; })()", "returnByValue": True}, session)
            out["hover"] = label["result"].get("value")
            dot = browser.call("Runtime.evaluate", {"expression": "(() => { const d = document.querySelector('.routedot'); return !!d && d.getAttribute('visibility') === 'visible'; })()", "returnByValue": True}, session)
            out["routeDot"] = dot["result"].get("value")
    if shots:
        browser.call("Runtime.evaluate", {"expression": "window.scrollTo(0, 0)"}, session)
        metrics = browser.call("Page.getLayoutMetrics", {}, session)
        height = int(metrics.get("cssContentSize", metrics.get("contentSize"))["height"])
        shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                        "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 6000), "scale": 1}}, session, timeout=60)
        name = os.path.join(shots, "%02d.png" % index)
        with open(name, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        out["screenshot"] = name
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chromium", default="/usr/lib/chromium/chromium")
    ap.add_argument("--screenshots")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--hover", action="store_true")
    ap.add_argument("--allow", action="append", default=[])
    ap.add_argument("urls", nargs="+")
    a = ap.parse_args()
    browser = Browser(a.chromium, a.width)
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            browser.call(m, {}, session)
        browser.call("Emulation.setDeviceMetricsOverride", {"width": a.width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session)
        for i, url in enumerate(a.urls):
            print(json.dumps(check(browser, session, url, a.screenshots, a.width, a.hover, i, a.allow)), flush=True)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
