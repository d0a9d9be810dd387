package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/web"
)

// The view applies its Host policy before anything else: with the zero
// policy a foreign name, or a foreign Origin on the live stream, gets 403
// and a short reason, still with the strict headers; the loopback names
// on the server's port are served.
func TestViewRefusesForeignHostsAndOrigins(t *testing.T) {
	ts := serve(t, web.Options{Store: readOnly(t, emptyDatabase(t))})
	u, _ := url.Parse(ts.URL)
	cases := []struct {
		name, path, host, origin string
		want                     int
	}{
		{"loopback address", "/", u.Host, "", http.StatusOK},
		{"localhost", "/", "localhost:" + u.Port(), "", http.StatusOK},
		{"rebound name", "/", "evil.example:" + u.Port(), "", http.StatusForbidden},
		{"rebound name on the live stream", "/live", "evil.example:" + u.Port(), "", http.StatusForbidden},
		{"foreign origin on the live stream", "/live", u.Host, "http://evil.example", http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, ts.URL+c.path, nil)
			req.Host = c.host
			if c.origin != "" {
				req.Header.Set("Origin", c.origin)
			}
			resp, err := ts.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.want)
			}
			if resp.Header.Get("X-Frame-Options") != "DENY" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
				t.Fatalf("answer without the strict headers: %v", resp.Header)
			}
		})
	}
}
