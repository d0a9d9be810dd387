package postgres

import (
	"context"
	"testing"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// TestEngineKeepsTheSeamGuarantees runs the engine suite, the one the
// SQLite engine passes, against a fresh database per check.
func TestEngineKeepsTheSeamGuarantees(t *testing.T) {
	testServer(t)
	storetest.Run(t, func(t *testing.T) store.Engine {
		e, err := Open(context.Background(), freshDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		return e
	})
}
