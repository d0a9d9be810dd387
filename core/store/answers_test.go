package store

import (
	"encoding/json"

	"github.com/agenttool/collab/core/answer"
)

// answerJSON is a mutation's answer as the tool result's bytes, for tests that
// check what a caller is told.
func answerJSON[T any](a *answer.Of[T], err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return a.JSON(), nil
}
