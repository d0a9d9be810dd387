package main

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestWebRefusesARebindingPageInBrowser plays DNS rebinding in headless
// Chromium: a host-resolver rule points the foreign name evil.example at
// 127.0.0.1, as a rebinding attacker's DNS would. A page loaded from
// that name, and the script on it asking its "own" origin for a journal
// page and the live stream, are refused; the same page on the loopback
// names loads and shows the journal.
func TestWebRefusesARebindingPageInBrowser(t *testing.T) {
	chromiumPath(t)
	w := buildRebindingWorld(t)
	srv := startWeb(t, w.s, w.s.db)
	u, err := url.Parse(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"))
	reports := "/w/" + w.ws + "/reports"

	for _, name := range []string{"127.0.0.1", "localhost"} {
		status, text := browse(t, b, "http://"+name+":"+u.Port()+reports)
		if status != http.StatusOK || !strings.Contains(text, reportMarker) {
			t.Fatalf("%s: status %d, want the reports page; it shows:\n%.300s", name, status, text)
		}
	}
	b.requireClean(t)

	evil := "http://evil.example:" + u.Port()
	status, text := browse(t, b, evil+reports)
	if status != http.StatusForbidden || strings.Contains(text, reportMarker) || !strings.Contains(text, "host not allowed") {
		t.Fatalf("page from evil.example: status %d, want 403 without the journal; it shows:\n%.300s", status, text)
	}
	// The attacker's script now runs on evil.example and asks what it
	// takes to be its own server.
	for _, path := range []string{reports, "/live", "/"} {
		var got string
		fetch := `fetch(` + quoteJS(path) + `).then(async r => r.status + " " + (await r.text()))`
		b.must(t, chromedp.Evaluate(fetch, &got, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
			return p.WithAwaitPromise(true)
		}))
		if !strings.HasPrefix(got, "403 ") || strings.Contains(got, reportMarker) {
			t.Fatalf("script on evil.example fetched %s: %.300q, want 403 without the journal", path, got)
		}
	}
	for _, secret := range w.secrets {
		if strings.Contains(text, secret) {
			t.Fatal("the refusal shows a token or a credential path")
		}
	}
}

// browse navigates to target and returns the document's HTTP status and
// visible text.
func browse(t *testing.T, b *browser, target string) (int, string) {
	t.Helper()
	var resp int64
	var text string
	err := b.run(t, 45*time.Second, chromedp.ActionFunc(func(ctx context.Context) error {
		r, err := chromedp.RunResponse(ctx, chromedp.Navigate(target))
		if err != nil {
			return err
		}
		resp = r.Status
		return nil
	}), chromedp.WaitReady("body", chromedp.ByQuery), chromedp.Evaluate(`document.body.innerText`, &text))
	if err != nil {
		t.Fatalf("browse %s: %v", target, err)
	}
	return int(resp), text
}

func quoteJS(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
