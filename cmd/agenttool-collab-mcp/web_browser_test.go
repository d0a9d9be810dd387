package main

import (
	"database/sql"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"
	"strings"
	"testing"
)

func checkBoardShowsTasksWrittenByServerProcesses(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	b.open(t, srv.url+"/w/"+w.ws+"/")
	want := map[string]string{"web-login": "open", "docs-auth": "open", "api-auth": "claimed", "flaky-ci": "blocked", "release-notes": "completed", "rate-limit": "reported_complete"}
	for id, col := range want {
		var got string
		b.eval(t, `(function(){var c=document.getElementById("task-`+id+`");return c?c.closest("section").dataset.status:"missing"})()`, &got)
		if got != col {
			t.Errorf("task %s: column %q, want %q", id, got, col)
		}
	}
	var card string
	b.eval(t, `document.getElementById("task-api-auth").innerText`, &card)
	for _, part := range []string{"alice", "api/auth", "v4", "lease in", "middleware written"} {
		if !strings.Contains(card, part) {
			t.Errorf("api-auth card lacks %q:\n%s", part, card)
		}
	}
	var deps string
	b.eval(t, `document.getElementById("task-web-login").innerText`, &deps)
	if !strings.Contains(deps, "after api-auth") {
		t.Errorf("web-login card does not show its dependency:\n%s", deps)
	}
	b.requireClean(t)
}

// TestWebInBrowser drives the web view in headless Chromium against one
// journal written by real server processes. The checks share the journal,
// the web process and the browser to keep CI cheap; the one that writes
// (a claim by another process) runs last.
func TestWebInBrowser(t *testing.T) {
	chromiumPath(t)
	w := buildWebWorld(t, 35)
	srv := startWeb(t, w.s, w.s.db)
	b := newBrowser(t)
	checks := []struct {
		name string
		fn   func(*testing.T, *webWorld, *webServer, *browser)
	}{
		{"BoardShowsTasksWrittenByServerProcesses", checkBoardShowsTasksWrittenByServerProcesses},
		{"RendersJournalTextAsText", checkRendersJournalTextAsText},
		{"ShowsNoTokenOrCredentialPath", checkShowsNoTokenOrCredentialPath},
		{"TimelinePagesAndFilters", checkTimelinePagesAndFilters},
		{"Screenshots", checkScreenshots},
		{"VerificationBadgeTurnsInvalidOnATamperedCopy", checkVerificationBadgeTurnsInvalidOnATamperedCopy},
		{"ShowsAClaimByAnotherProcessWithoutReload", checkShowsAClaimByAnotherProcessWithoutReload},
	}
	for _, c := range checks {
		if !t.Run(c.name, func(t *testing.T) { c.fn(t, w, srv, b) }) {
			return
		}
	}
}

// columnOf is the board column a task's card sits in ("missing" if none).
func columnOf(id string) string {
	return `(function(){var c=document.getElementById("task-` + id + `");return c?c.closest("section").dataset.status:"missing"})()`
}

func checkShowsAClaimByAnotherProcessWithoutReload(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	b.open(t, srv.url+"/w/"+w.ws+"/")
	// Wait until the page listens, then mark the document: a reload
	// would lose the mark.
	waitFor(t, b, `document.getElementById("live").dataset.state === "on"`, 30*time.Second)
	b.eval(t, `window.noReloadMark = 42`, nil)
	var col string
	b.eval(t, columnOf("docs-auth"), &col)
	if col != "open" {
		t.Fatalf("docs-auth starts in %q, want open", col)
	}
	ok(t, w.bob, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": "docs-auth",
		"idempotency_key": "claim-docs", "expected_version": 1})
	claimed := time.Now()
	waitFor(t, b, columnOf("docs-auth")+` === "claimed"`, 30*time.Second)
	elapsed := time.Since(claimed)
	var mark int
	b.eval(t, `window.noReloadMark || 0`, &mark)
	if mark != 42 {
		t.Fatal("the page reloaded instead of updating in place")
	}
	t.Logf("claim by another process appeared %v after its reply", elapsed.Round(time.Millisecond))
	if elapsed > 2*time.Second {
		t.Errorf("claim appeared after %v, want within 2 s", elapsed)
	}
	b.requireClean(t)
}

// waitFor polls a JavaScript condition until it holds or d passes.
func waitFor(t *testing.T, b *browser, cond string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		var ok bool
		if err := b.run(t, 10*time.Second, chromedp.Evaluate(cond, &ok)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("condition never held within %v: %s", d, cond)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

func checkTimelinePagesAndFilters(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	b.open(t, srv.url+"/w/"+w.ws+"/timeline")
	var seqs []int
	readSeqs := `Array.from(document.querySelectorAll(".timeline details")).map(d => +d.id.slice(2))`
	b.eval(t, readSeqs, &seqs)
	var head int
	b.eval(t, `+document.querySelector("main h1").innerText.match(/head #(\d+)/)[1]`, &head)
	if len(seqs) != 50 || seqs[0] != head {
		t.Fatalf("first page: %d events starting at %v, want 50 from head %d", len(seqs), seqs[:1], head)
	}
	b.must(t, chromedp.Click(`a[rel=next]`, chromedp.ByQuery))
	waitFor(t, b, `location.search.includes("before=") && !!document.body.dataset.refreshed`, 30*time.Second)
	var older []int
	b.eval(t, readSeqs, &older)
	if len(older) == 0 || older[0] != seqs[49]-1 || older[len(older)-1] != max(1, head-99) {
		t.Fatalf("second page %v does not continue the first (ended at %d)", older, seqs[49])
	}
	// Filter by type with the form, as a person would. The list of types
	// is read in the background; reload until it offers the claim type.
	for deadline := time.Now().Add(30 * time.Second); ; {
		b.open(t, srv.url+"/w/"+w.ws+"/timeline")
		var offered bool
		b.eval(t, `!!document.querySelector('select[name=type] option[value="task.claimed"]')`, &offered)
		if offered {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the type filter never offered task.claimed")
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.must(t, chromedp.SetValue(`select[name=type]`, "task.claimed", chromedp.ByQuery),
		chromedp.Submit(`select[name=type]`, chromedp.ByQuery), chromedp.WaitReady(`main`, chromedp.ByQuery))
	waitFor(t, b, `location.search.includes("type=task.claimed") && !!document.body.dataset.refreshed`, 30*time.Second)
	var types []string
	b.eval(t, `Array.from(document.querySelectorAll(".timeline .type")).map(e => e.textContent)`, &types)
	if len(types) != len(w.leases) {
		t.Fatalf("type filter: %v, want the %d claims", types, len(w.leases))
	}
	for _, ty := range types {
		if ty != "task.claimed" {
			t.Fatalf("type filter let %q through", ty)
		}
	}
	// Reports by kind, and by addressee.
	var n int
	b.open(t, srv.url+"/w/"+w.ws+"/reports?kind=inference")
	b.eval(t, `document.querySelectorAll(".report").length`, &n)
	var roots int
	b.eval(t, `document.querySelectorAll(".threads > .report").length`, &roots)
	if n != 2 || roots != 1 {
		t.Fatalf("kind=inference: %d reports in %d threads, want the inference under the proposal it challenges", n, roots)
	}
	b.open(t, srv.url+"/w/"+w.ws+"/reports?to="+w.aliceID)
	var to []string
	b.eval(t, `Array.from(document.querySelectorAll(".report header")).map(h => h.innerText)`, &to)
	if len(to) != 2 {
		t.Fatalf("to=alice: %d reports, want 2: %v", len(to), to)
	}
	for _, h := range to {
		if !strings.Contains(h, "→") {
			t.Fatalf("to=alice shows an unaddressed report: %s", h)
		}
	}
	b.requireClean(t)
}

func checkVerificationBadgeTurnsInvalidOnATamperedCopy(t *testing.T, w *webWorld, _ *webServer, b *browser) {
	tampered := filepath.Join(w.s.root, "tampered.sqlite")
	db, err := sql.Open("sqlite", w.s.db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("VACUUM INTO ?", tampered); err != nil {
		t.Fatal(err)
	}
	db.Close()
	cp, err := sql.Open("sqlite", tampered)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cp.Exec(`UPDATE events SET payload_json = replace(payload_json, 'Login page', 'Logout page') WHERE payload_json LIKE '%Login page%'`)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("tamper: %v (%d rows)", err, n)
	}
	cp.Close()
	for _, c := range []struct {
		db, want string
	}{{w.s.db, "valid"}, {tampered, "invalid"}} {
		srv := startWeb(t, w.s, c.db)
		b.open(t, srv.url+"/w/"+w.ws+"/timeline")
		b.must(t, chromedp.Click("#verify", chromedp.ByQuery))
		waitFor(t, b, `["valid","invalid"].includes(document.getElementById("verify").dataset.state)`, 60*time.Second)
		var state, text string
		b.eval(t, `document.getElementById("verify").dataset.state`, &state)
		b.eval(t, `document.getElementById("verify").innerText`, &text)
		if state != c.want {
			t.Fatalf("%s: badge %q (%s), want %s", filepath.Base(c.db), state, text, c.want)
		}
	}
	b.requireClean(t)
}

func checkRendersJournalTextAsText(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	for _, path := range []string{"/reports", "/timeline", "/"} {
		b.open(t, srv.url+"/w/"+w.ws+path)
		var scripts, imgs, jsLinks int
		b.eval(t, `Array.from(document.scripts).filter(s => !s.src.endsWith("/assets/app.js")).length`, &scripts)
		b.eval(t, `document.images.length`, &imgs)
		b.eval(t, `Array.from(document.querySelectorAll("[href],[src]")).filter(e => /^\s*javascript:/i.test(e.getAttribute("href")||e.getAttribute("src"))).length`, &jsLinks)
		if scripts != 0 || imgs != 0 || jsLinks != 0 {
			t.Fatalf("%s: journal text became markup: %d scripts, %d images, %d javascript: links", path, scripts, imgs, jsLinks)
		}
	}
	b.open(t, srv.url+"/w/"+w.ws+"/reports")
	var body string
	b.eval(t, `document.querySelector("#report-`+w.xssReport+` .body").textContent`, &body)
	if body != xssBody {
		t.Fatalf("the report body is not shown as its own text:\n got %q\nwant %q", body, xssBody)
	}
	b.requireClean(t) // no alert dialog, no console error
}

func checkShowsNoTokenOrCredentialPath(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	secrets := append([]string{"collab-sessions"}, w.tokens...)
	for _, f := range w.credentialFiles {
		secrets = append(secrets, f, filepath.Base(f))
	}
	for _, path := range []string{"/", "/sessions", "/reports", "/decisions", "/handoffs", "/conflicts", "/timeline", "/anchor"} {
		b.open(t, srv.url+"/w/"+w.ws+path)
		var html string
		b.eval(t, `document.documentElement.outerHTML`, &html)
		for _, s := range secrets {
			if strings.Contains(html, s) {
				t.Fatalf("%s shows a secret (%q)", path, s)
			}
		}
	}
	b.requireClean(t)
}
