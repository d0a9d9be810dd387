package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// updateScreenshots rewrites docs/web/*.png when set to 1.
const updateScreenshots = "UPDATE_SCREENSHOTS"

// checkScreenshots takes the pictures docs/web.md shows, from a journal
// written by real server processes. Every page must answer 200 and run
// without a console error; with UPDATE_SCREENSHOTS=1 the PNGs are
// rewritten (each must stay under 300 KB).
func checkScreenshots(t *testing.T, w *webWorld, srv *webServer, b *browser) {
	shots := []struct {
		name, path       string
		dark             bool
		width, height    int64
		mobile           bool
		expandFirstEvent bool
	}{
		{name: "board", path: "/"},
		{name: "timeline", path: "/timeline", expandFirstEvent: true, width: 1200, height: 720},
		{name: "reports", path: "/reports"},
		{name: "sessions", path: "/sessions"},
		{name: "decisions", path: "/decisions"},
		{name: "board-dark", path: "/", dark: true},
		{name: "board-phone", path: "/", mobile: true, width: 390, height: 844},
	}
	update := os.Getenv(updateScreenshots) == "1"
	for _, s := range shots {
		url := srv.url + "/w/" + w.ws + s.path
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: HTTP %d", s.path, resp.StatusCode)
		}
		width, height := s.width, s.height
		if width == 0 {
			width, height = 1280, 860
		}
		scheme := "light"
		if s.dark {
			scheme = "dark"
		}
		var png []byte
		actions := []chromedp.Action{
			emulation.SetDeviceMetricsOverride(width, height, 1, s.mobile),
			emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}),
			chromedp.Navigate(url), chromedp.WaitReady("main", chromedp.ByQuery),
		}
		if s.expandFirstEvent {
			actions = append(actions, chromedp.Evaluate(`document.querySelectorAll("details")[1].open=true`, nil))
		}
		actions = append(actions, chromedp.CaptureScreenshot(&png))
		b.must(t, actions...)
		b.must(t, emulation.ClearDeviceMetricsOverride(), emulation.SetEmulatedMedia())
		var h1 string
		b.eval(t, `document.querySelector("main h1").innerText`, &h1)
		if strings.Contains(h1, "went wrong") {
			t.Fatalf("%s: the page shows an error", s.path)
		}
		if !update {
			continue
		}
		if len(png) > 300<<10 {
			t.Errorf("%s.png is %d KB, over 300 KB", s.name, len(png)>>10)
		}
		out := filepath.Join("..", "..", "docs", "web", s.name+".png")
		os.MkdirAll(filepath.Dir(out), 0o755)
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.requireClean(t)
}
