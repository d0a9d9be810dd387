package cli

import (
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/answer"
)

// answerOf is an action's result for actCommand: the store's answer in the
// shape a tool call returns it, and the line saying what happened.
func answerOf[T any](a *answer.Of[T], text string) (any, string, error) {
	v, err := decodeAnswer(a.JSON())
	return v, text, err
}

// encodedAnswer is answerOf for an answer the store does not render (a
// session's end), encoded the way package answer encodes every answer.
func encodedAnswer(v any, text string) (any, string, error) {
	raw, err := answer.Encode(v)
	if err != nil {
		return nil, "", fmt.Errorf("encode the answer: %w", err)
	}
	m, err := decodeAnswer(raw)
	return m, text, err
}

// decodeAnswer reads an answer's JSON as a generic object, so that --json
// prints its members in name order, as the person's commands always have.
func decodeAnswer(raw []byte) (map[string]any, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("read the answer: %w", err)
	}
	return m, nil
}
