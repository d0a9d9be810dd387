package postgres

import (
	"context"
	"testing"

	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/engine/enginetest"
)

// TestEngineKeepsTheSeamGuarantees runs the engine suite, the one the
// SQLite engine passes, against a fresh database per check.
func TestEngineKeepsTheSeamGuarantees(t *testing.T) {
	testServer(t)
	enginetest.Run(t, func(t *testing.T) engine.Engine {
		e, err := Open(context.Background(), freshDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		return e
	})
}
