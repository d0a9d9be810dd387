package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// webServer is one real `web` process of the test binary.
type webServer struct {
	url string
	cmd *exec.Cmd
}

// startWeb launches `agenttool-collab-mcp web` on db as a real OS process
// and waits for the line naming its address.
func startWeb(t testing.TB, s *sandbox, db string, extra ...string) *webServer {
	t.Helper()
	args := append([]string{"web", "--addr", "127.0.0.1:0", "--db", db}, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = s.env()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if _, rest, ok := strings.Cut(sc.Text(), "serving "); ok {
			url, _, _ := strings.Cut(rest, " ")
			go func() {
				for sc.Scan() {
				}
			}()
			return &webServer{url: strings.TrimSuffix(url, "/"), cmd: cmd}
		}
	}
	cmd.Wait()
	t.Fatalf("web server never said where it listens; stderr:\n%s", stderr.String())
	return nil
}

// chromiumPath finds the system Chromium. Without one the browser tests
// skip locally but fail in CI, where .ci/run installs it.
func chromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{os.Getenv("COLLAB_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but no chromium is installed: .ci/run must install it (apt-get install -y chromium)")
	}
	t.Skip("browser test skipped: no chromium on PATH (apt-get install -y chromium, or set COLLAB_CHROMIUM)")
	return ""
}

// browser is one headless Chromium tab that records every console error,
// uncaught exception and JavaScript dialog.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newBrowser(t testing.TB, opts ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	exe := chromiumPath(t)
	all := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	all = append(all, chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900),
		chromedp.Env("TMPDIR="+shortTempDir(t)))
	all = append(all, opts...)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), all...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeWarning {
				b.note(fmt.Sprintf("console %s: %v", e.Type, argsText(e.Args)))
			}
		case *runtime.EventExceptionThrown:
			b.note("exception: " + e.ExceptionDetails.Error())
		case *page.EventJavascriptDialogOpening:
			b.note("dialog: " + e.Message)
			go chromedp.Run(ctx, page.HandleJavaScriptDialog(false))
		}
	})
	// The first Run starts the browser and binds it to ctx itself (a
	// deadline here would end the browser with it); the go test timeout
	// bounds a start that hangs.
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return b
}

// shortTempDir is a private folder with a short path for Chromium's own
// temporary files. Its singleton socket lives there, and a Unix socket's
// path must fit in about a hundred bytes, which a long TMPDIR (macOS's
// /var/folders/…/T/, or any deep one) leaves no room for.
func shortTempDir(t testing.TB) string {
	t.Helper()
	base := os.TempDir()
	if len(base) > 40 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "cr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func argsText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func (b *browser) note(s string) {
	b.mu.Lock()
	b.problems = append(b.problems, s)
	b.mu.Unlock()
}

// requireClean fails the test if any console error, exception or dialog
// happened so far.
func (b *browser) requireClean(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.problems) > 0 {
		t.Fatalf("the page reported problems:\n%s", strings.Join(b.problems, "\n"))
	}
}

// run executes actions with a deadline.
func (b *browser) run(t testing.TB, d time.Duration, actions ...chromedp.Action) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, d)
	defer cancel()
	return chromedp.Run(ctx, actions...)
}

// must runs actions and fails the test on error (generous deadline: the
// machine may be loaded).
func (b *browser) must(t testing.TB, actions ...chromedp.Action) {
	t.Helper()
	if err := b.run(t, 45*time.Second, actions...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// open navigates to url and waits until the page has connected to the
// live stream and done the refresh that follows (which replaces main, so
// a test must not hold on to nodes from before it).
func (b *browser) open(t testing.TB, url string) {
	t.Helper()
	b.must(t, chromedp.Navigate(url), chromedp.WaitReady("main", chromedp.ByQuery))
	deadline := time.Now().Add(30 * time.Second)
	for {
		var settled bool
		if err := b.run(t, 10*time.Second, chromedp.Evaluate(`!!document.body.dataset.refreshed`, &settled)); err == nil && settled {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never connected to the live stream", url)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(t testing.TB, expr string, out any) {
	t.Helper()
	b.must(t, chromedp.Evaluate(expr, out))
}

// webWorld is the scripted journal the browser tests look at: written by
// real server processes, one per session.
type webWorld struct {
	s                *sandbox
	ws               string
	alice, bob       *mcptest.Client
	aliceID, bobID   string
	credentialFiles  []string
	tokens           []string
	leases           map[string]string
	xssReport        string
	firstProposalID  string
	eventsAfterSetup int64
}

// xssBody is a report body that must render as text.
const xssBody = `<script>alert("xss")</script><img src=x onerror=alert(2)> see javascript:alert(3) and <a href="javascript:alert(4)">this</a>`

func buildWebWorld(t *testing.T, tasks int) *webWorld {
	t.Helper()
	s := newSandbox(t)
	repo := s.repo("app", map[string]string{"README.md": "demo\n", "api/server.go": "package api\n", "web/index.html": "<p>hi</p>\n"})
	w := &webWorld{s: s, leases: map[string]string{}}
	var r map[string]any
	var file string
	w.alice, r, file = startSession(t, s, repo, "alice")
	w.ws, w.aliceID = str(r, "workspace.id"), str(r, "session.id")
	w.credentialFiles = append(w.credentialFiles, file)
	w.tokens = append(w.tokens, readCredential(t, file)["session_token"].(string))
	w.bob, r, file = startSession(t, s, repo, "bob")
	w.bobID = str(r, "session.id")
	w.credentialFiles = append(w.credentialFiles, file)
	w.tokens = append(w.tokens, readCredential(t, file)["session_token"].(string))

	create := func(c *mcptest.Client, id, title string, extra map[string]any) {
		args := map[string]any{"workspace_id": w.ws, "idempotency_key": "create-" + id, "task_id": id, "title": title, "work_mode": "coordination"}
		for k, v := range extra {
			args[k] = v
		}
		ok(t, c, "collab_task_create", args)
	}
	create(w.alice, "api-auth", "Add token auth to the API", map[string]any{"path_scopes": []any{"api/auth"}, "completion_policy": "accepted"})
	create(w.alice, "web-login", "Login page", map[string]any{"path_scopes": []any{"web/login"}, "dependencies": []any{"api-auth"}})
	create(w.alice, "docs-auth", "Document the auth flow", map[string]any{"path_scopes": []any{"docs/auth.md"}})
	create(w.alice, "flaky-ci", "Investigate the flaky CI job", nil)
	create(w.alice, "release-notes", "Draft release notes", nil)
	create(w.alice, "rate-limit", "Rate-limit the login endpoint", map[string]any{"path_scopes": []any{"api/limits.go"}, "completion_policy": "accepted"})
	for i := 0; i < tasks; i++ {
		id := fmt.Sprintf("chore-%02d", i)
		create(w.bob, id, fmt.Sprintf("Small chore number %d", i), nil)
	}
	claim := func(c *mcptest.Client, id string) {
		res := ok(t, c, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": id, "idempotency_key": "claim-" + id, "expected_version": 1, "ttl_seconds": 1800})
		w.leases[id] = str(res, "task.lease_id")
	}
	claim(w.alice, "api-auth")
	claim(w.bob, "flaky-ci")
	ok(t, w.bob, "collab_task_block", map[string]any{"workspace_id": w.ws, "task_id": "flaky-ci", "idempotency_key": "block-flaky",
		"expected_version": 2, "lease_id": w.leases["flaky-ci"], "blocker": "needs access to the CI runner logs"})
	claim(w.bob, "release-notes")
	ok(t, w.bob, "collab_task_complete", map[string]any{"workspace_id": w.ws, "task_id": "release-notes", "idempotency_key": "done-notes",
		"expected_version": 2, "lease_id": w.leases["release-notes"], "summary": "Drafted in docs/notes.md"})
	claim(w.bob, "rate-limit")
	ok(t, w.bob, "collab_task_complete", map[string]any{"workspace_id": w.ws, "task_id": "rate-limit", "idempotency_key": "done-limit",
		"expected_version": 2, "lease_id": w.leases["rate-limit"], "summary": "Token bucket, 10 req/s per client"})
	ok(t, w.alice, "collab_task_progress", map[string]any{"workspace_id": w.ws, "task_id": "api-auth", "idempotency_key": "prog-1",
		"expected_version": 2, "lease_id": w.leases["api-auth"], "message": "middleware written; tests next"})

	rep := func(c *mcptest.Client, key, kind, body string, extra map[string]any) string {
		args := map[string]any{"workspace_id": w.ws, "idempotency_key": key, "kind": kind, "body": body}
		for k, v := range extra {
			args[k] = v
		}
		return str(ok(t, c, "collab_report_append", args), "report.id")
	}
	w.firstProposalID = rep(w.alice, "r1", "proposal", "Use short-lived bearer tokens for the API; sessions renew them.", map[string]any{"confidence": "medium"})
	rep(w.bob, "r2", "observation", "The CI runner times out after 10 minutes on the integration job.", map[string]any{"to_session_id": w.aliceID, "task_id": "flaky-ci"})
	rep(w.bob, "r3", "inference", "Token renewal will need a clock-skew allowance.", map[string]any{"relation": "challenges", "target_report_id": w.firstProposalID})
	rep(w.alice, "r4", "proposal", "Short-lived tokens with a 30 s skew allowance.", map[string]any{"relation": "supersedes", "target_report_id": w.firstProposalID})
	w.xssReport = rep(w.bob, "r5", "observation", xssBody, map[string]any{"to_session_id": w.aliceID})
	ok(t, w.alice, "collab_decision_record", map[string]any{"workspace_id": w.ws, "idempotency_key": "d1", "topic": "API auth",
		"decision": "Bearer tokens, 15 minute lifetime", "rationale": "short exposure window; renewal is cheap",
		"authority_scope": "api", "authority_basis": "owner of the API task"})
	legacy := s.start()
	ok(t, legacy, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "dave"})
	ok(t, legacy, "collab_decision_record", map[string]any{"workspace_id": w.ws, "idempotency_key": "d2", "actor": "dave",
		"topic": "Release cadence", "decision": "Ship every second Tuesday"})
	ok(t, w.alice, "collab_handoff_offer", map[string]any{"workspace_id": w.ws, "task_id": "api-auth", "idempotency_key": "h1",
		"expected_version": 3, "lease_id": w.leases["api-auth"], "summary": "Middleware done; tests remain", "to_session_id": w.bobID})
	ok(t, w.bob, "collab_session_join", map[string]any{"workspace_id": w.ws, "client_instance_id": "laptop-1", "actor_label": "carol",
		"runtime_kind": "claude_code", "provider_label": "anthropic", "model_label": "claude", "declared_capabilities": []any{"review", "docs"}})
	return w
}
