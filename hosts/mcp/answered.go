package mcp

import (
	"encoding/json"

	"github.com/agenttool/collab/core/answer"
)

// answered is a mutating tool's payload: the store's answer as package
// answer rendered it, which is also what its receipt replays, so a first
// call and its retries return the same bytes. A replay is never decoded:
// its receipt may have been written by the reference.
func answered[T any](a *answer.Of[T], err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return json.RawMessage(a.JSON()), nil
}
