package web_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/web"
)

func TestVerifyStreamReportsProgressThenTheVerdict(t *testing.T) {
	path, ws := scaleDatabase(t, 1, 6000)
	ts := serve(t, web.Options{Store: readOnly(t, path)})
	_, body := get(t, ts.Client(), ts.URL+"/w/"+ws+"/verify/stream")
	if !strings.Contains(body, "event: progress\ndata: {\"done\":2000,\"total\":6000}") ||
		!strings.HasSuffix(body, "event: result\ndata: {\"valid\":true,\"events\":6000,\"head\":6000}\n\n") {
		t.Fatalf("stream:\n%s", body)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE events SET actor = 'mallory' WHERE sequence = 4500"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, body = get(t, ts.Client(), ts.URL+"/w/"+ws+"/verify/stream")
	if !strings.Contains(body, "event: result\ndata: {\"valid\":false") {
		t.Fatalf("tampered stream:\n%s", body)
	}
	// Without script, the badge's link verifies and says so.
	_, page := get(t, ts.Client(), ts.URL+"/w/"+ws+"/verify")
	if !strings.Contains(page, "INVALID") {
		t.Fatalf("verify page:\n%s", page)
	}
}
