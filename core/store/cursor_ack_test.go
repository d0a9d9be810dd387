package store_test

import (
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestAckAnswersTheSessionAsStored checks that collab_cursor_ack's answer,
// built without reading the session back, is the session row as the
// acknowledgement left it.
func TestAckAnswersTheSessionAsStored(t *testing.T) {
	f := newReportFixture(t)
	if _, err := f.append(f.b, store.AppendReportInput{Kind: "observation", Body: "something to read"}); err != nil {
		t.Fatal(err)
	}
	next, err := f.s.NextForSession(f.ctx, cred(f.a), nil, 50)
	if err != nil {
		t.Fatal(err)
	}
	acked, err := f.s.AckCursor(f.ctx, cred(f.a), f.a.Workspace.ID, next.Events.NextAnchor, next.Session.CursorVersion)
	if err != nil {
		t.Fatal(err)
	}
	if acked.Cursor != next.Events.NextAnchor || acked.CursorVersion != next.Session.CursorVersion+1 {
		t.Fatalf("ack answered cursor %+v version %d, want %+v version %d",
			acked.Cursor, acked.CursorVersion, next.Events.NextAnchor, next.Session.CursorVersion+1)
	}
	stored, err := f.s.Session(f.ctx, f.a.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(acked, stored) {
		t.Fatalf("ack answered\n%+v\nthe store holds\n%+v", acked, stored)
	}
}
