package main

import (
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// actWorld is the scripted journal of webWorld, a `web --act` process
// over it, and the person's session id once their first action made it.
type actWorld struct {
	*webWorld
	srv    *webServer
	b      *browser
	act    string // the Act page's URL
	person string
}

// TestWebActInBrowser drives `web --act` in headless Chromium against a
// journal written by real server processes. A person posts a report that
// an agent's server process then sees through collab_next, reviews a
// completion, records a decision, creates a task, takes over a handoff an
// agent offered them and releases it again, all by clicking the page's
// forms. A form posted from another site, a forged or missing page token
// and a foreign Host are refused and write nothing.
func TestWebActInBrowser(t *testing.T) {
	chromiumPath(t)
	w := &actWorld{webWorld: buildWebWorld(t, 0)}
	w.srv = startWeb(t, w.s, w.s.db, "--act", "--as", "pat")
	w.b = newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"))
	w.act = w.srv.url + "/w/" + w.ws + "/act"
	checks := []struct {
		name string
		fn   func(*testing.T, *actWorld)
	}{
		{"PostsAReportAnAgentSeesThroughNext", checkPostsAReportAnAgentSees},
		{"ReviewsDecidesAndCreates", checkReviewsDecidesAndCreates},
		{"TakesOverAHandoffAndReleasesIt", checkTakesOverAHandoffAndReleases},
		{"RefusesAFormPostedFromAnotherSite", checkRefusesCrossSitePost},
		{"RefusesAForgedOrMissingToken", checkRefusesBadTokens},
		{"RefusesAForeignHost", checkRefusesForeignHost},
		{"RefusesAnotherLocalUser", checkRefusesAnotherLocalUser}, // Linux only (see its file)
		{"ShowsNoSecret", checkActShowsNoSecret},
		{"Screenshots", checkActScreenshots},
	}
	for _, c := range checks {
		if !t.Run(c.name, func(t *testing.T) { c.fn(t, w) }) {
			return
		}
	}
}

// submit fills the fields of the form selected by form and clicks its
// button, then waits for the Act page to say what was done. Filling and
// clicking run as one script: the page swaps in fresh server HTML whenever
// the journal changes, so nodes looked up by separate browser commands can
// be gone by the next one; within one script no swap can come between.
func (w *actWorld) submit(t *testing.T, form string, fields map[string]string, button string, says string) {
	t.Helper()
	w.b.open(t, w.act)
	values, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	script := `(function () {
  var f = document.querySelector(` + quoteJS(form) + `);
  if (!f) return "no form " + ` + quoteJS(form) + `;
  var values = ` + string(values) + ` || {};
  for (var name in values) {
    var e = f.querySelector("[name=\"" + name + "\"]");
    if (!e) return "no field " + name;
    e.value = values[name];
  }
  var b = f.querySelector(` + quoteJS(button) + `);
  if (!b) return "no button " + ` + quoteJS(button) + `;
  b.click();
  return "";
})()`
	var missing string
	w.b.must(t, chromedp.Evaluate(script, &missing))
	if missing != "" {
		t.Fatalf("the Act page has %s", missing)
	}
	waitFor(t, w.b, `!!document.getElementById("done") && document.getElementById("done").innerText.includes(`+quoteJS(says)+`)`, 30*time.Second)
	w.b.requireClean(t)
}

// events counts the journal's events, for "nothing was written".
func (w *actWorld) events(t *testing.T) int {
	t.Helper()
	db, err := sql.Open("sqlite", w.s.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func checkPostsAReportAnAgentSees(t *testing.T, w *actWorld) {
	ok(t, w.alice, "collab_next", map[string]any{"workspace_id": w.ws, "event_limit": 50}) // drain what alice has not seen
	body := "Please keep the rate limit at 10 req/s until the load test"
	w.submit(t, "#post-form", map[string]string{"body": body, "to": w.aliceID}, "button[type=submit]", "Report posted")
	w.b.eval(t, `document.getElementById("me").dataset.session`, &w.person)
	if w.person == "" {
		t.Fatal("the Act page does not show the person's session after their first action")
	}
	next := ok(t, w.alice, "collab_next", map[string]any{"workspace_id": w.ws, "event_limit": 50})
	raw, _ := json.Marshal(next)
	if !strings.Contains(string(raw), body) || !strings.Contains(string(raw), w.person) {
		t.Fatalf("alice's collab_next does not carry the person's report:\n%.1500s", raw)
	}
	// The terminal's people's commands act as the same session. Their
	// post resumes it, fencing the web process's hold; the web's next
	// action takes the session again and goes through.
	var who struct {
		Session struct{ ID string } `json:"session"`
	}
	if err := json.Unmarshal([]byte(w.cli(t, "whoami", "--json")), &who); err != nil || who.Session.ID != w.person {
		t.Fatalf("collab whoami names session %q (%v), the web view acts as %q", who.Session.ID, err, w.person)
	}
	w.cli(t, "post", "posted from the terminal in between")
	w.submit(t, "#post-form", map[string]string{"body": "posted from the page again"}, "button[type=submit]", "Report posted")
	next = ok(t, w.alice, "collab_next", map[string]any{"workspace_id": w.ws, "event_limit": 50})
	raw, _ = json.Marshal(next)
	for _, body := range []string{"posted from the terminal in between", "posted from the page again"} {
		if !strings.Contains(string(raw), body) {
			t.Fatalf("alice's collab_next lacks %q:\n%.1500s", body, raw)
		}
	}
}

// cli runs one people's command against the world's database and
// workspace, as the same OS user and home as the web process.
func (w *actWorld) cli(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], append(args, "--db", w.s.db, "--workspace", w.ws)...)
	cmd.Env = w.s.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

func checkReviewsDecidesAndCreates(t *testing.T, w *actWorld) {
	w.submit(t, "#review-rate-limit", map[string]string{"summary": "Checked the bucket size in the web view"},
		"button[value=accept]", "Completion accepted")
	w.submit(t, "#decide-form", map[string]string{"topic": "Rate limits", "decision": "10 req/s per client, burst 20",
		"rationale": "matches the load test"}, "button[type=submit]", "Decision recorded")
	w.submit(t, "#create-form", map[string]string{"title": "Add a rate limiter", "task": "rate-limiter", "mode": "edit",
		"paths": "api/limiter.go\napi/limiter_test.go", "depends": "rate-limit"}, "button[type=submit]", "Task created: rate-limiter")
	task := ok(t, w.bob, "collab_task_get", map[string]any{"workspace_id": w.ws, "task_id": "rate-limiter"})
	if str(task, "task.title") != "Add a rate limiter" {
		t.Fatalf("bob does not see the created task: %v", task)
	}
	reviewed := ok(t, w.bob, "collab_task_get", map[string]any{"workspace_id": w.ws, "task_id": "rate-limit"})
	if str(reviewed, "task.review_status") != "accepted" {
		t.Fatalf("rate-limit after the person's review: %v", reviewed["task"])
	}
	w.b.open(t, w.srv.url+"/w/"+w.ws+"/decisions")
	var text string
	w.b.eval(t, `document.querySelector("main").innerText`, &text)
	if !strings.Contains(text, "10 req/s per client, burst 20") {
		t.Fatal("the decisions page does not show the person's decision")
	}
}

func checkTakesOverAHandoffAndReleases(t *testing.T, w *actWorld) {
	claim := ok(t, w.bob, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth",
		"idempotency_key": "claim-docs-act", "expected_version": 1})
	ok(t, w.bob, "collab_handoff_offer", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth", "idempotency_key": "offer-docs",
		"expected_version": 2, "lease_id": str(claim, "task.lease_id"), "summary": "Outline written; a person should finish it",
		"to_session_id": w.person})
	w.submit(t, "#offers", nil, "button[value=accept]", "Handoff accepted")
	var held string
	w.b.eval(t, `document.getElementById("held").innerText`, &held)
	if !strings.Contains(held, "docs-auth") {
		t.Fatalf("after taking over, the person does not hold docs-auth:\n%s", held)
	}
	w.submit(t, "#release-docs-auth", map[string]string{"summary": "Back to the pool; outline is in docs/auth.md"},
		"button[type=submit]", "Lease released: docs-auth")
	got := ok(t, w.bob, "collab_task_get", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth"})
	if str(got, "task.status") != "open" {
		t.Fatalf("docs-auth after the person released it: %v", got["task"])
	}
}

// checkRefusesCrossSitePost serves a page from another origin whose form
// posts to the view on its own, as a malicious site would.
func checkRefusesCrossSitePost(t *testing.T, w *actWorld) {
	before := w.events(t)
	evil := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "text/html")
		rw.Write([]byte(`<!doctype html><form id="f" method="post" action="` + w.act + `/post">` +
			`<input name="csrf" value="guessed.token"><input name="key" value="evil-1"><input name="kind" value="observation">` +
			`<input name="body" value="written by another site"></form><script>document.getElementById("f").submit()</script>`))
	}))
	defer evil.Close()
	u, _ := url.Parse(evil.URL)
	for _, origin := range []string{evil.URL, "http://evil.example:" + u.Port()} {
		var status int64
		var text string
		w.b.must(t, chromedp.Navigate(origin))
		waitFor(t, w.b, `location.href.startsWith(`+quoteJS(w.srv.url)+`)`, 30*time.Second)
		w.b.must(t, chromedp.WaitReady("body", chromedp.ByQuery), chromedp.Evaluate(`document.body.innerText`, &text))
		w.b.must(t, chromedp.Evaluate(`performance.getEntriesByType("navigation")[0].responseStatus`, &status))
		if status != http.StatusForbidden || !strings.Contains(text, "not allowed") {
			t.Fatalf("form from %s: status %d, want 403; the page says:\n%.300s", origin, status, text)
		}
	}
	if after := w.events(t); after != before {
		t.Fatalf("a cross-site form wrote %d events", after-before)
	}
}

func checkRefusesBadTokens(t *testing.T, w *actWorld) {
	before := w.events(t)
	for _, c := range []struct{ name, tamper string }{
		{"forged", `document.querySelector("#post-form [name=csrf]").value = "AAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAA"`},
		{"missing", `document.querySelector("#post-form [name=csrf]").remove()`},
	} {
		w.b.open(t, w.act)
		w.b.must(t, chromedp.SetValue(`#post-form [name=body]`, "a post with a "+c.name+" token", chromedp.ByQuery),
			chromedp.Evaluate(c.tamper, nil), chromedp.Click(`#post-form button[type=submit]`, chromedp.ByQuery))
		waitFor(t, w.b, `!!document.getElementById("refusal")`, 30*time.Second)
		var text string
		w.b.eval(t, `document.getElementById("refusal").innerText`, &text)
		if !strings.Contains(text, "page token") || !strings.Contains(text, "nothing was written") {
			t.Fatalf("%s token: the page says %q", c.name, text)
		}
	}
	if after := w.events(t); after != before {
		t.Fatalf("posts with bad tokens wrote %d events", after-before)
	}
}

// checkRefusesForeignHost loads the view under a name that resolves to it
// (as DNS rebinding would) and posts from there.
func checkRefusesForeignHost(t *testing.T, w *actWorld) {
	before := w.events(t)
	u, _ := url.Parse(w.srv.url)
	status, text := browse(t, w.b, "http://evil.example:"+u.Port()+"/w/"+w.ws+"/act")
	if status != http.StatusForbidden || strings.Contains(text, "Post a report") {
		t.Fatalf("act page under a foreign Host: %d\n%.300s", status, text)
	}
	var got string
	post := `fetch("/w/` + w.ws + `/act/post", {method: "POST", body: new URLSearchParams({kind: "observation", body: "rebound"})}).then(async r => r.status + " " + (await r.text()))`
	w.b.must(t, chromedp.Evaluate(post, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if !strings.HasPrefix(got, "403 ") || !strings.Contains(got, "host not allowed") {
		t.Fatalf("post under a foreign Host: %.300q", got)
	}
	if after := w.events(t); after != before {
		t.Fatalf("a post under a foreign Host wrote %d events", after-before)
	}
}

func checkActShowsNoSecret(t *testing.T, w *actWorld) {
	secrets := append([]string{"collab-sessions", "collab-person"}, w.tokens...)
	for _, f := range w.credentialFiles {
		secrets = append(secrets, f, filepath.Base(f))
	}
	state := filepath.Join(w.s.root, "home", ".local", "state", "agenttool", "collab-person")
	entries, err := os.ReadDir(state)
	if err != nil || len(entries) != 1 {
		t.Fatalf("the person's credential is not where the people's commands keep it: %v (%d files)", err, len(entries))
	}
	cred := readCredential(t, filepath.Join(state, entries[0].Name()))
	secrets = append(secrets, cred["session_token"].(string), entries[0].Name())
	for _, path := range []string{"/act", "/", "/sessions", "/timeline"} {
		w.b.open(t, w.srv.url+"/w/"+w.ws+path)
		var html string
		w.b.eval(t, `document.documentElement.outerHTML`, &html)
		for _, s := range secrets {
			if strings.Contains(html, s) {
				t.Fatalf("%s shows a secret (%q)", path, s)
			}
		}
	}
}

// checkActScreenshots takes the pictures of the Act page docs/web.md
// shows (UPDATE_SCREENSHOTS=1 rewrites them): the page with an offer and
// a completion to review, at desktop and phone width, and a refusal.
func checkActScreenshots(t *testing.T, w *actWorld) {
	ok(t, w.alice, "collab_task_create", map[string]any{"workspace_id": w.ws, "idempotency_key": "create-copy", "task_id": "login-copy",
		"title": "Write the login page copy", "work_mode": "coordination", "completion_policy": "accepted"})
	claim := ok(t, w.bob, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": "login-copy",
		"idempotency_key": "claim-login-act", "expected_version": 1})
	ok(t, w.bob, "collab_task_complete", map[string]any{"workspace_id": w.ws, "task_id": "login-copy", "idempotency_key": "done-login-act",
		"expected_version": 2, "lease_id": str(claim, "task.lease_id"), "summary": "Copy drafted in web/login/copy.md"})
	v := num(ok(t, w.bob, "collab_task_get", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth"}), "task.version")
	claim = ok(t, w.bob, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth",
		"idempotency_key": "claim-docs-act-2", "expected_version": v})
	ok(t, w.bob, "collab_handoff_offer", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth", "idempotency_key": "offer-docs-2",
		"expected_version": v + 1, "lease_id": str(claim, "task.lease_id"), "summary": "Needs a person's eye on the wording", "to_session_id": w.person})
	shots := []struct {
		name          string
		width, height int64
		mobile        bool
		refused       bool
	}{
		{name: "act", width: 1280, height: 900},
		{name: "act-phone", width: 390, height: 844, mobile: true},
		{name: "act-refused", width: 900, height: 420, refused: true},
	}
	update := os.Getenv(updateScreenshots) == "1"
	for _, s := range shots {
		var png []byte
		w.b.must(t, emulation.SetDeviceMetricsOverride(s.width, s.height, 1, s.mobile))
		w.b.open(t, w.act)
		waitFor(t, w.b, `document.querySelectorAll("#offers form").length === 1 && document.querySelectorAll("#reviews form").length === 1`, 30*time.Second)
		if s.refused {
			w.b.must(t, chromedp.SetValue(`#post-form [name=body]`, "sent after the web command restarted", chromedp.ByQuery),
				chromedp.Evaluate(`document.querySelector("#post-form [name=csrf]").value = "AAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAA"`, nil),
				chromedp.Click(`#post-form button[type=submit]`, chromedp.ByQuery))
			waitFor(t, w.b, `!!document.getElementById("refusal")`, 30*time.Second)
		}
		w.b.must(t, chromedp.CaptureScreenshot(&png), emulation.ClearDeviceMetricsOverride())
		if !update {
			continue
		}
		if len(png) > 300<<10 {
			t.Errorf("%s.png is %d KB, over 300 KB", s.name, len(png)>>10)
		}
		if err := os.WriteFile(filepath.Join("..", "..", "docs", "web", s.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w.b.requireClean(t)
}
