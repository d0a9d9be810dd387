package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// withholding is the independence rule for the person reading: the open
// claims of their own session on this workspace (docs/independence.md).
// A person who never acted here has no session and no claim, and reads
// everything; so does one with no home directory, where no credential
// could ever have been kept.
func (v *view) withholding(ctx context.Context) (store.Withholding, error) {
	path, err := place.PersonCredential(place.OS(), v.path, v.ws.ID)
	if errors.Is(err, place.ErrNoHome) {
		return store.Withholding{}, nil
	}
	if err != nil {
		return store.Withholding{}, err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return store.Withholding{}, nil
	}
	cred, err := credfile.Read(path)
	if err != nil {
		return store.Withholding{}, &problem{what: "your session credential could not be read, so your independence claims are unknown: " + err.Error(),
			fix: "run `collab whoami`; `collab logout` forgets a broken session", code: ExitRefused}
	}
	w, err := v.st.WithholdingFor(ctx, store.Credential{SessionID: cred.SessionID})
	if err != nil {
		return store.Withholding{}, fmt.Errorf("read your independence claims: %w", err)
	}
	return w, nil
}
