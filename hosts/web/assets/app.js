// Live updates, lease countdowns and the verification badge. Everything
// shown is rendered by the server; this script only swaps in fresh server
// HTML (parsed inertly by DOMParser, never executed) and sets text.
"use strict";
(function () {
  var live = document.getElementById("live");
  var refreshing = false, again = false;

  function human(ms) {
    var s = Math.abs(Math.round(ms / 1000)), out;
    if (s < 60) out = s + "s";
    else if (s < 3600) out = Math.floor(s / 60) + "m " + (s % 60) + "s";
    else if (s < 172800) out = Math.floor(s / 3600) + "h " + Math.floor((s % 3600) / 60) + "m";
    else out = Math.floor(s / 86400) + "d";
    return ms >= 0 ? "in " + out : out + " ago";
  }

  // Server clock minus browser clock, so countdowns agree with the server.
  var skew = 0;
  function readSkew() {
    var m = document.querySelector("main[data-now]");
    var t = m && Date.parse(m.getAttribute("data-now"));
    if (t) skew = t - Date.now();
  }
  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll("time.countdown").forEach(function (el) {
      var t = Date.parse(el.getAttribute("datetime"));
      if (!isNaN(t)) {
        el.textContent = t > now ? human(t - now) : "expired " + human(t - now);
        el.classList.toggle("expired", t <= now);
      }
    });
  }

  // A form the person is filling in is never swapped away: while one has
  // focus or differs from how it was rendered, refreshes wait, and the
  // one that was held back runs when the form is left untouched.
  var held = false;
  function editing() {
    var forms = document.querySelectorAll("main form.act");
    for (var i = 0; i < forms.length; i++) {
      var f = forms[i];
      if (f.contains(document.activeElement)) return true;
      for (var j = 0; j < f.elements.length; j++) {
        var e = f.elements[j];
        if ((e.type === "text" || e.tagName === "TEXTAREA" || e.type === "search") && e.value !== e.defaultValue) return true;
        if (e.tagName === "SELECT" && e.selectedIndex > 0) return true;
      }
    }
    return false;
  }
  document.addEventListener("focusout", function () {
    setTimeout(function () { if (held && !editing()) { held = false; refresh(); } }, 0);
  });

  function refresh() {
    if (editing()) { held = true; return; }
    if (refreshing) { again = true; return; }
    refreshing = true;
    var open = [];
    document.querySelectorAll("details[open][id]").forEach(function (d) { open.push(d.id); });
    var focused = document.activeElement && document.activeElement.id;
    fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      if (!r.ok && r.status !== 503 && r.status !== 404) throw new Error("HTTP " + r.status);
      return r.text();
    }).then(function (html) {
      // The person may have started typing while the page was fetched.
      if (editing()) { held = true; return; }
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.querySelector("main"), cur = document.querySelector("main");
      if (!fresh || !cur) return;
      cur.replaceWith(document.importNode(fresh, true));
      open.forEach(function (id) { var d = document.getElementById(id); if (d) d.open = true; });
      if (focused) { var f = document.getElementById(focused); if (f) f.focus(); }
      readSkew(); tick();
      document.body.setAttribute("data-refreshed", String(Date.now()));
    }).catch(function () {}).then(function () {
      refreshing = false;
      if (again) { again = false; refresh(); }
    });
  }

  function listen() {
    if (!window.EventSource) return;
    var es = new EventSource("/live");
    // Each (re)connection refreshes once: a commit between rendering the
    // page and listening would otherwise go unseen.
    es.addEventListener("open", function () {
      if (live) { live.textContent = "live"; live.setAttribute("data-state", "on"); }
      refresh();
    });
    es.addEventListener("error", function () { if (live) { live.textContent = "reconnecting"; live.setAttribute("data-state", "off"); } });
    es.addEventListener("change", refresh);
  }

  function verify(ev) {
    var badge = ev.currentTarget, ws = document.body.getAttribute("data-ws");
    if (!ws || !window.EventSource) return;
    ev.preventDefault();
    if (badge.getAttribute("data-state") === "running") return;
    badge.setAttribute("data-state", "running");
    badge.textContent = "Chain: verifying…";
    var es = new EventSource("/w/" + encodeURIComponent(ws) + "/verify/stream");
    es.addEventListener("progress", function (e) {
      var p = JSON.parse(e.data);
      var pct = p.total > 0 ? Math.min(100, Math.floor(100 * p.done / p.total)) : 100;
      badge.textContent = "Chain: verifying " + pct + "%";
    });
    es.addEventListener("result", function (e) {
      es.close();
      var r = JSON.parse(e.data);
      badge.setAttribute("data-state", r.valid ? "valid" : "invalid");
      badge.textContent = r.valid ? "Chain: valid (" + r.events + " events)" : "Chain: INVALID";
    });
    es.addEventListener("failure", function () {
      es.close();
      badge.setAttribute("data-state", "unknown");
      badge.textContent = "Chain: verify failed, retry";
    });
  }

  readSkew(); tick();
  setInterval(tick, 1000);
  var badge = document.getElementById("verify");
  if (badge) badge.addEventListener("click", verify);
  listen();
})();
