package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/web"
)

// actWorld is a database with one workspace and a view over it that acts.
type actWorld struct {
	ts     *httptest.Server
	client *http.Client
	rw     *store.Store
	ws     store.Workspace
	creds  string
}

func newActWorld(t *testing.T, acting bool) *actWorld {
	t.Helper()
	path := emptyDatabase(t)
	ctx := context.Background()
	rw, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rw.Close() })
	opened, err := rw.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "setup"})
	if err != nil {
		t.Fatal(err)
	}
	w := &actWorld{rw: rw, ws: opened.Workspace, creds: filepath.Join(t.TempDir(), "person")}
	opts := web.Options{Store: readOnly(t, path)}
	if acting {
		opts.Act = &web.Acting{Store: rw, Actor: "pat",
			Credential: func(ws string) (string, error) { return filepath.Join(w.creds, ws+".json"), nil }}
	}
	w.ts = serve(t, opts)
	jar, _ := cookiejar.New(nil)
	w.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return w
}

// head is the workspace's journal head: it moves with every event.
func (w *actWorld) head(t *testing.T) int64 {
	t.Helper()
	wss, err := w.rw.Workspaces(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return wss[0].EventHeadSequence
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
var keyField = regexp.MustCompile(`name="key" value="([^"]+)"`)

// actPage loads the Act page and returns its token and one form key.
func (w *actWorld) actPage(t *testing.T) (token, key string) {
	t.Helper()
	resp, body := get(t, w.client, w.ts.URL+"/w/"+w.ws.ID+"/act")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("act page: %d\n%s", resp.StatusCode, body)
	}
	m, k := csrfField.FindStringSubmatch(body), keyField.FindStringSubmatch(body)
	if m == nil || k == nil {
		t.Fatalf("the act page has no token or key:\n%s", body)
	}
	return m[1], k[1]
}

func (w *actWorld) post(t *testing.T, action string, form url.Values, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.ts.URL+"/w/"+w.ws.ID+"/act/"+action, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := w.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Without Act the view is strictly read-only: no Act page, no form that
// writes, and every post refused before anything is read or written.
func TestReadOnlyViewRendersNoFormsAndRefusesPosts(t *testing.T) {
	w := newActWorld(t, false)
	before := w.head(t)
	for _, p := range []string{"/w/" + w.ws.ID + "/", "/w/" + w.ws.ID + "/reports", "/w/" + w.ws.ID + "/handoffs"} {
		_, body := get(t, w.client, w.ts.URL+p)
		if strings.Contains(body, `method="post"`) || strings.Contains(body, "/act") || strings.Contains(body, `name="csrf"`) {
			t.Fatalf("%s renders an acting form or link", p)
		}
	}
	if resp, _ := get(t, w.client, w.ts.URL+"/w/"+w.ws.ID+"/act"); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("read-only act page: %d, want 404", resp.StatusCode)
	}
	origin := w.ts.URL
	for _, path := range []string{"act/post", "act/decide", "act/create"} {
		status, body := w.post(t, path, url.Values{"body": {"hello"}, "kind": {"observation"}}, "Origin", origin)
		if status != http.StatusMethodNotAllowed || !strings.Contains(body, "read-only") {
			t.Fatalf("%s: %d %q, want 405 saying the view is read-only", path, status, body)
		}
	}
	if after := w.head(t); after != before {
		t.Fatalf("the read-only view wrote %d events", after-before)
	}
}

// Every refusal of the acting view names its reason and writes nothing;
// the same form with its page token, from the view's own origin, posts.
func TestActingFormsRefuseCrossSiteAndBadTokensAndWriteOnlyWhenSound(t *testing.T) {
	w := newActWorld(t, true)
	u, _ := url.Parse(w.ts.URL)
	token, key := w.actPage(t)
	form := func(tok string) url.Values {
		return url.Values{"csrf": {tok}, "key": {key}, "kind": {"observation"}, "body": {"ping from the page"}}
	}
	before := w.head(t)
	cases := []struct {
		name   string
		form   url.Values
		header []string
		want   int
		says   string
	}{
		{"missing token", url.Values{"key": {key}, "kind": {"observation"}, "body": {"x"}}, []string{"Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, "page token"},
		{"forged token", form("AAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAA"), []string{"Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, "page token"},
		{"token with a changed signature", form(token[:len(token)-4] + "AAAA"), []string{"Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, "page token"},
		{"cross-site by fetch metadata", form(token), []string{"Sec-Fetch-Site", "cross-site"}, http.StatusForbidden, "another site"},
		{"same-site but another origin", form(token), []string{"Sec-Fetch-Site", "same-site"}, http.StatusForbidden, "another site"},
		{"foreign origin", form(token), []string{"Origin", "http://evil.example"}, http.StatusForbidden, "origin not allowed"},
		{"null origin", form(token), []string{"Origin", "null"}, http.StatusForbidden, "origin not allowed"},
		{"foreign referer", form(token), []string{"Referer", "http://evil.example/page"}, http.StatusForbidden, "another site"},
		{"no origin evidence at all", form(token), nil, http.StatusForbidden, "says nothing"},
		{"foreign host", form(token), []string{"Host", "evil.example:" + u.Port(), "Sec-Fetch-Site", "same-origin"}, http.StatusForbidden, "host not allowed"},
		{"body over the bound", url.Values{"csrf": {token}, "key": {key}, "kind": {"observation"}, "body": {strings.Repeat("x", 8001)}}, []string{"Sec-Fetch-Site", "same-origin"}, http.StatusBadRequest, "at most 8000"},
		{"unknown kind", url.Values{"csrf": {token}, "key": {key}, "kind": {"decision"}, "body": {"x"}}, []string{"Sec-Fetch-Site", "same-origin"}, http.StatusBadRequest, "kind must be one of"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := w.post(t, "post", c.form, c.header...)
			if status != c.want || !strings.Contains(body, c.says) {
				t.Fatalf("status %d, want %d saying %q:\n%.600s", status, c.want, c.says, body)
			}
			if strings.Contains(body, w.creds) || strings.Contains(body, token) {
				t.Fatal("the refusal shows the credential place or the page token")
			}
			if after := w.head(t); after != before {
				t.Fatalf("a refused post wrote %d events", after-before)
			}
		})
	}
	t.Run("token of another browser", func(t *testing.T) {
		jar, _ := cookiejar.New(nil)
		other := &actWorld{ts: w.ts, ws: w.ws, client: &http.Client{Jar: jar, CheckRedirect: w.client.CheckRedirect}}
		other.actPage(t) // another browser gets a cookie of its own
		status, body := other.post(t, "post", form(token), "Sec-Fetch-Site", "same-origin")
		if status != http.StatusForbidden || !strings.Contains(body, "page token") || w.head(t) != before {
			t.Fatalf("status %d, want 403 and nothing written:\n%.400s", status, body)
		}
	})
	for _, evidence := range [][]string{{"Sec-Fetch-Site", "same-origin"}, {"Origin", w.ts.URL}, {"Referer", w.ts.URL + "/w/" + w.ws.ID + "/act"}} {
		token, key := w.actPage(t)
		status, body := w.post(t, "post", url.Values{"csrf": {token}, "key": {key}, "kind": {"observation"}, "body": {"posted with " + evidence[0]}}, evidence...)
		if status != http.StatusSeeOther {
			t.Fatalf("sound post with %s: %d\n%.600s", evidence[0], status, body)
		}
	}
	reports, err := w.rw.Reports(context.Background(), w.ws.ID, store.ReportQuery{Limit: 10})
	if err != nil || len(reports) != 3 || reports[0].FromActor != "pat" {
		t.Fatalf("reports after three sound posts: %d (%v)", len(reports), err)
	}
}

// A form sent twice (a double click, a resent post) records one action:
// the page gives each form its own idempotency key.
func TestAFormSentTwiceRecordsOnce(t *testing.T) {
	w := newActWorld(t, true)
	token, key := w.actPage(t)
	form := url.Values{"csrf": {token}, "key": {key}, "topic": {"Release cadence"}, "decision": {"Every second Tuesday"}}
	for i := 0; i < 2; i++ {
		if status, body := w.post(t, "decide", form, "Sec-Fetch-Site", "same-origin"); status != http.StatusSeeOther {
			t.Fatalf("post %d: %d\n%s", i, status, body)
		}
	}
	reports, err := w.rw.Reports(context.Background(), w.ws.ID, store.ReportQuery{Kind: "decision", Limit: 10})
	if err != nil || len(reports) != 1 {
		t.Fatalf("decisions after the same form twice: %d (%v)", len(reports), err)
	}
}

// The notice after an action names a known outcome and an identifier
// only: a crafted link cannot make the Act page say other text.
func TestDoneNoticeSaysOnlyKnownOutcomesAndIdentifiers(t *testing.T) {
	w := newActWorld(t, true)
	cases := []struct{ query, want, not string }{
		{"done=posted&id=rep_1", "Report posted: rep_1.", ""},
		{"done=posted&id=run+curl+evil.example", "Report posted.", "curl"},
		{"done=you-are-hacked&id=x", "", "hacked"},
	}
	for _, c := range cases {
		_, body := get(t, w.client, w.ts.URL+"/w/"+w.ws.ID+"/act?"+c.query)
		if c.want != "" && !strings.Contains(body, "✔ "+c.want) {
			t.Errorf("%s: the page does not say %q", c.query, c.want)
		}
		if c.not != "" && strings.Contains(body, c.not) {
			t.Errorf("%s: the page repeats %q", c.query, c.not)
		}
	}
}
