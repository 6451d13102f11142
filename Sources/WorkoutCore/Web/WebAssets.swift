/// The pages' style sheet, script and icon, served from the daemon (`/static/...`) so the
/// Content-Security-Policy can allow nothing but the page's own origin. Static strings: they
/// cost nothing until a page asks for them.
public enum WebAsset: String, Sendable, CaseIterable {
    case style = "app.css"
    case script = "app.js"
    case icon = "icon.svg"

    public var contentType: String {
        switch self {
        case .style: return "text/css; charset=utf-8"
        case .script: return "text/javascript; charset=utf-8"
        case .icon: return "image/svg+xml"
        }
    }

    public var path: String { "/static/" + rawValue }

    public var bytes: [UInt8] {
        let s: StaticString
        switch self {
        case .style: s = WebAsset.css
        case .script: s = WebAsset.js
        case .icon: s = WebAsset.svgIcon
        }
        return s.withUTF8Buffer { Array($0) }
    }

    static let svgIcon: StaticString = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#ea580c"/>\
    <path d="M10 42 L22 30 L31 37 L42 20 L54 30" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/></svg>
    """

    static let css: StaticString = """
    :root{--bg:#f4f5f7;--card:#fff;--ink:#1d2330;--muted:#667085;--line:#e4e7ec;--accent:#ea580c;--accent2:#c2410c;\
    --link:#1d4ed8;--grid:#eef0f3;--ground:#f3f1ea;--grat:#e4e0d4;\
    --c1:#2b6cb0;--c2:#38a169;--c3:#d69e2e;--c4:#dd6b20;--c5:#c53030;--z0:#a0aec0;--z1:#63b3ed;--z2:#48bb78;--z3:#ecc94b;--z4:#ed8936;--z5:#e53e3e}
    @media (prefers-color-scheme:dark){:root{--bg:#101418;--card:#1a2027;--ink:#e6e9ee;--muted:#98a2b3;--line:#2c343e;--link:#7aa2ff;\
    --grid:#242b33;--ground:#1d232a;--grat:#29313a}}
    *{box-sizing:border-box}
    html{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg)}
    body{margin:0}
    a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
    header.top{display:flex;align-items:center;gap:28px;padding:0 28px;height:56px;background:var(--card);border-bottom:1px solid var(--line);position:sticky;top:0;z-index:5}
    .brand{display:flex;align-items:center;gap:10px;font-weight:700;font-size:18px;color:var(--ink)}
    .brand svg{width:28px;height:28px}
    header nav{display:flex;gap:4px;flex:1}
    header nav a{color:var(--muted);padding:17px 12px;font-weight:600;border-bottom:3px solid transparent}
    header nav a:hover{color:var(--ink);text-decoration:none}
    header nav a.on{color:var(--ink);border-bottom-color:var(--accent)}
    .livedot{display:inline-block;width:8px;height:8px;border-radius:50%;background:var(--z5);margin-right:6px;vertical-align:1px}
    main{max-width:1180px;margin:0 auto;padding:24px 28px 48px}
    footer{max-width:1180px;margin:0 auto;padding:8px 28px 32px;color:var(--muted);font-size:13px}
    h1{font-size:26px;margin:4px 0 4px;letter-spacing:-.01em}
    h2{font-size:17px;margin:0 0 12px}
    h3{font-size:14px;margin:0 0 6px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.04em}
    .sub{color:var(--muted);margin:0 0 18px}
    .card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:18px 20px;margin:0 0 18px;box-shadow:0 1px 2px rgba(16,24,40,.04)}
    .grid2{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:18px}
    .grid2{margin-bottom:18px}.grid2>.card{margin:0}.grid2.even{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}
    .row{display:flex;gap:18px;flex-wrap:wrap}
    .stats{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:14px 18px;margin:6px 0 4px}
    .stat b{display:block;font-size:24px;font-weight:650;letter-spacing:-.01em;font-variant-numeric:tabular-nums}
    .stat span{color:var(--muted);font-size:13px}
    .badge{display:inline-block;padding:2px 10px;border-radius:999px;background:var(--bg);border:1px solid var(--line);font-size:13px;color:var(--muted);font-weight:600}
    table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
    th{text-align:left;font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600;padding:8px 10px;border-bottom:1px solid var(--line)}
    td{padding:9px 10px;border-bottom:1px solid var(--line)}
    tr:last-child td{border-bottom:0}
    td.num,th.num{text-align:right;white-space:nowrap}
    .scroll{max-height:560px;overflow:auto}
    tbody tr:hover{background:var(--bg)}
    .act{display:inline-flex;align-items:center;gap:8px}
    .dot{width:10px;height:10px;border-radius:3px;display:inline-block}
    form.filter{display:flex;flex-wrap:wrap;gap:12px;align-items:end}
    label{display:flex;flex-direction:column;gap:4px;font-size:13px;color:var(--muted);font-weight:600}
    input,select,textarea{font:inherit;color:var(--ink);background:var(--card);border:1px solid var(--line);border-radius:8px;padding:7px 10px}
    textarea{min-height:80px;resize:vertical}
    button,.button{font:inherit;font-weight:600;border:0;border-radius:8px;padding:8px 16px;background:var(--accent);color:#fff;cursor:pointer}
    button:hover,.button:hover{background:var(--accent2);text-decoration:none}
    .button.ghost{background:transparent;color:var(--ink);border:1px solid var(--line)}
    .downloads{display:flex;gap:8px;flex-wrap:wrap}
    .pager{display:flex;gap:10px;justify-content:space-between;margin-top:12px}
    .empty{color:var(--muted);text-align:center;padding:36px 0}
    svg.chart,svg.route,svg.volume,svg.calendar{display:block;width:100%;height:auto}
    svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
    .grid line{stroke:var(--grid);stroke-width:1}
    .line{fill:none;stroke:var(--accent);stroke-width:1.6;stroke-linejoin:round}
    [data-chart=elevation] .line{stroke:#6b7280}.area{fill:#9ca3af;opacity:.35}
    [data-chart=heartrate] .line{stroke:#dc2626}[data-chart=power] .line{stroke:#7c3aed}
    [data-chart=cadence] .line{stroke:#0891b2}[data-chart=pace] .line,[data-chart=speed] .line{stroke:#2563eb}
    .lap{stroke:var(--muted);stroke-dasharray:3 4;opacity:.6}
    rect.implausible{fill:#111827;opacity:.12}
    .zb{opacity:.13}.zl{font-size:10px;opacity:.8}
    .z0,.c0{fill:var(--z0);stroke:var(--z0)}.z1{fill:var(--z1);stroke:var(--z1)}.z2{fill:var(--z2);stroke:var(--z2)}
    .z3{fill:var(--z3);stroke:var(--z3)}.z4{fill:var(--z4);stroke:var(--z4)}.z5{fill:var(--z5);stroke:var(--z5)}
    svg.route .ground{fill:var(--ground)}.graticule{stroke:var(--grat);stroke-width:1;fill:none}
    svg.route .attribution{font-size:11px;fill:#374151;paint-order:stroke;stroke:#fff;stroke-width:3px}
    .track path{fill:none;stroke-width:4;stroke-linecap:round;stroke-linejoin:round}
    .track .casing{stroke:#fff;stroke-width:8;opacity:.9}
    .track .implausible{stroke:#111827;stroke-width:3;stroke-dasharray:2 7;opacity:.85}
    .legend i.implausible{background:repeating-linear-gradient(90deg,#111827 0 2px,transparent 2px 6px)}
    [data-colour=pace] .c1{stroke:var(--c1)}[data-colour=pace] .c2{stroke:var(--c2)}[data-colour=pace] .c3{stroke:var(--c3)}
    [data-colour=pace] .c4{stroke:var(--c4)}[data-colour=pace] .c5{stroke:var(--c5)}
    [data-colour=hr] .c0{stroke:var(--z0)}[data-colour=hr] .c1{stroke:var(--z1)}[data-colour=hr] .c2{stroke:var(--z2)}
    [data-colour=hr] .c3{stroke:var(--z3)}[data-colour=hr] .c4{stroke:var(--z4)}[data-colour=hr] .c5{stroke:var(--z5)}
    .start{fill:#16a34a;stroke:#fff;stroke-width:3}.finish{fill:#111827;stroke:#fff;stroke-width:2}
    .legend .start,.legend .finish,.legend .pause circle,.legend .lapmark circle{stroke-width:1}
    .pause circle{fill:#fff;stroke:#6b7280;stroke-width:1.5}.pause path{stroke:#374151;stroke-width:1.6}
    .lapmark circle{fill:#fff;stroke:#111827;stroke-width:1.5}.lapmark text{font-size:9px;font-weight:700;fill:#111827}
    .scale path{fill:none;stroke:#374151;stroke-width:2}.scale text{fill:#374151;font-weight:600}.north{fill:#374151;font-weight:700}
    .legend{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:12px;color:var(--muted);margin-top:10px}
    .legend i{display:inline-block;width:18px;height:6px;border-radius:3px;margin-right:6px;vertical-align:2px}
    .legend .c1{background:var(--c1)}.legend .c2{background:var(--c2)}.legend .c3{background:var(--c3)}.legend .c4{background:var(--c4)}.legend .c5{background:var(--c5)}
    .legend .z0{background:var(--z0)}.legend .z1{background:var(--z1)}.legend .z2{background:var(--z2)}.legend .z3{background:var(--z3)}.legend .z4{background:var(--z4)}.legend .z5{background:var(--z5)}
    .tabs{display:inline-flex;border:1px solid var(--line);border-radius:8px;overflow:hidden;font-size:13px}
    .tabs a{padding:4px 12px;color:var(--muted)}.tabs a.on{background:var(--bg);color:var(--ink);font-weight:600}
    .charthead{display:flex;justify-content:space-between;align-items:baseline;gap:12px;margin:14px 0 2px}
    .charthead:first-child{margin-top:0}.charthead span{color:var(--muted);font-size:13px}
    .cursor{stroke:var(--ink);stroke-width:1;opacity:.5}.hoverlabel rect{fill:var(--card);stroke:var(--line)}.hoverlabel text{fill:var(--ink);font-size:12px;font-weight:600}
    .routedot{fill:var(--accent);stroke:#fff;stroke-width:3}
    .bar{rx:2}.vol text.val{font-weight:600;fill:var(--ink)}
    .zones .barbg{fill:var(--grid)}
    rect.d0{fill:var(--grid)}rect.d1{fill:#fed7aa}rect.d2{fill:#fdba74}rect.d3{fill:#fb923c}rect.d4{fill:#ea580c}rect.d5{fill:#9a3412}
    .cal rect.today{stroke:var(--ink);stroke-width:1.5}
    .habits{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:12px}
    .habit{border:1px solid var(--line);border-radius:10px;padding:12px 14px}
    .meter{height:8px;background:var(--grid);border-radius:4px;overflow:hidden;margin:8px 0 4px}
    .meter svg{display:block;width:100%;height:8px}.meter rect{fill:var(--accent)}
    .muted{color:var(--muted)}.small{font-size:13px}
    .pb{color:var(--accent);font-weight:700;font-size:12px;margin-left:6px}
    .notes{white-space:pre-wrap;margin:8px 0 0}
    .live-none{padding:56px 0;text-align:center;color:var(--muted)}
    details summary{cursor:pointer;color:var(--link);font-weight:600}
    .editform{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin-top:12px}.editform .wide{grid-column:1/-1}
    @media (max-width:860px){.grid2{grid-template-columns:1fr}main{padding:16px}header.top{padding:0 12px;gap:10px}}
    """

    static let js: StaticString = """
    "use strict";
    (function(){
    const NS="http://www.w3.org/2000/svg";
    function fmt(v,f,u,d){if(f==="pace"){const s=Math.round(v);return Math.floor(s/60)+":"+String(s%60).padStart(2,"0")+" "+u;}
    if(f==="duration"){const s=Math.round(v);return Math.floor(s/3600)+":"+String(Math.floor(s/60)%60).padStart(2,"0")+":"+String(s%60).padStart(2,"0");}
    return v.toFixed(d)+" "+u;}
    function el(n,a){const e=document.createElementNS(NS,n);for(const k in a)e.setAttribute(k,a[k]);return e;}
    const charts=[];
    document.querySelectorAll("svg.chart[data-x0]").forEach(function(svg){
      const p=svg.querySelector("path.line");if(!p)return;
      const n=p.getAttribute("d").match(/-?[0-9.]+/g)||[];const pts=[];
      for(let i=0;i+1<n.length;i+=2)pts.push([+n[i],+n[i+1]]);
      pts.sort(function(a,b){return a[0]-b[0];});
      const c={svg:svg,pts:pts,x0:+svg.dataset.x0,x1:+svg.dataset.x1,y0:+svg.dataset.y0,y1:+svg.dataset.y1};
      c.cursor=el("line",{class:"cursor",y1:10,y2:166,visibility:"hidden"});
      c.label=el("g",{class:"hoverlabel",visibility:"hidden"});c.box=el("rect",{rx:4,height:22,y:12});c.text=el("text",{y:27});
      c.label.appendChild(c.box);c.label.appendChild(c.text);svg.appendChild(c.cursor);svg.appendChild(c.label);charts.push(c);
      svg.addEventListener("pointermove",function(ev){const r=svg.getBoundingClientRect();const px=(ev.clientX-r.left)*1000/r.width;
        show((px-56)/936*(c.x1-c.x0)+c.x0);});
      svg.addEventListener("pointerleave",hide);
    });
    function nearest(c,px){let lo=0,hi=c.pts.length-1;if(hi<0)return null;while(lo<hi){const m=(lo+hi)>>1;if(c.pts[m][0]<px)lo=m+1;else hi=m;}
      if(lo>0&&Math.abs(c.pts[lo-1][0]-px)<Math.abs(c.pts[lo][0]-px))lo--;return c.pts[lo];}
    function show(xv){charts.forEach(function(c){const px=56+(xv-c.x0)/(c.x1-c.x0)*936;const q=nearest(c,px);
      if(!q||px<56||px>992||Math.abs(q[0]-px)>12){c.cursor.setAttribute("visibility","hidden");c.label.setAttribute("visibility","hidden");return;}
      const ds=c.svg.dataset;const yv=c.y0+(166-q[1])/156*(c.y1-c.y0);
      c.cursor.setAttribute("x1",q[0]);c.cursor.setAttribute("x2",q[0]);c.cursor.setAttribute("visibility","visible");
      c.text.textContent=fmt(yv,ds.yf,ds.yu,+ds.yd)+"  \\u00b7  "+fmt(xv,ds.xf,ds.xu,ds.xf==="number"?2:0);
      const w=c.text.getComputedTextLength()+16;const x=Math.min(Math.max(q[0]-w/2,56),992-w);
      c.box.setAttribute("x",x);c.box.setAttribute("width",w);c.text.setAttribute("x",x+8);c.label.setAttribute("visibility","visible");});
      const route=document.querySelector("svg.route[data-track]");if(route)moveDot(route,xv);}
    function hide(){charts.forEach(function(c){c.cursor.setAttribute("visibility","hidden");c.label.setAttribute("visibility","hidden");});
      const d=document.querySelector(".routedot");if(d)d.setAttribute("visibility","hidden");}
    let track=null;
    function moveDot(route,xv){if(!track){const n=route.dataset.track.split(" ");track=[];for(let i=0;i+2<n.length;i+=3)track.push([+n[i],+n[i+1],+n[i+2]]);}
      if(!track.length)return;let lo=0,hi=track.length-1;while(lo<hi){const m=(lo+hi)>>1;if(track[m][0]<xv)lo=m+1;else hi=m;}
      let d=route.querySelector(".routedot");if(!d){d=el("circle",{class:"routedot",r:7});route.appendChild(d);}
      d.setAttribute("cx",track[lo][1]);d.setAttribute("cy",track[lo][2]);d.setAttribute("visibility","visible");}
    const live=document.querySelector("[data-live]");
    if(live&&window.EventSource){const es=new EventSource("/live/events");
      es.addEventListener("status",function(ev){const m=JSON.parse(ev.data);
        if(m.reload){es.close();location.reload();return;}
        for(const k in m.fields){const e=document.querySelector("[data-field='"+k+"']");if(e)e.textContent=m.fields[k];}
        if(m.route!==undefined){const r=document.getElementById("liveroute");if(r)r.innerHTML=m.route;}});
      es.onerror=function(){const s=document.querySelector("[data-field=state]");if(s)s.textContent="reconnecting";};}
    })();
    """
}
