package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/canon"
)

// call validates raw arguments against the tool's schema and runs it.
func (p *Process) call(ctx context.Context, t Tool, raw []byte) (*sdk.CallToolResult, error) {
	args, vs := decodeArgs(raw)
	if len(vs) == 0 {
		vs = t.Input.validate(args)
	}
	if len(vs) > 0 {
		return rejection(describeViolations(t.Name, vs)), nil
	}
	if !t.Waits {
		if err := p.takeTurn(ctx); err != nil {
			return failure(err, keepText), nil
		}
		defer p.endTurn()
	}
	payload, err := t.Handle(ctx, p, Args(args))
	if err != nil {
		if t.Waits {
			// Scrubbing reads the binding: take the turn for it, even
			// if the wait itself was cancelled.
			if p.takeTurn(context.WithoutCancel(ctx)) == nil {
				defer p.endTurn()
			}
		}
		return failure(err, p.scrub), nil
	}
	return success(payload)
}

// decodeArgs parses the argument object with the journal's JSON rules, so
// that text holding unpaired UTF-16 surrogates is refused rather than
// silently replaced.
func decodeArgs(raw []byte) (map[string]any, []violation) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	v, err := canon.Parse(raw)
	if err != nil {
		return nil, []violation{{"arguments", fmt.Sprintf("are not valid JSON (%v)", err)}}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, []violation{{"arguments", "must be a JSON object"}}
	}
	var vs []violation
	for k, val := range obj {
		if hasLoneSurrogate(val) {
			vs = append(vs, violation{k, "contains an unpaired UTF-16 surrogate; send well-formed Unicode text"})
		}
	}
	return obj, vs
}

func hasLoneSurrogate(v any) bool {
	switch x := v.(type) {
	case string:
		return canon.HasLoneSurrogate(x)
	case []any:
		for _, item := range x {
			if hasLoneSurrogate(item) {
				return true
			}
		}
	case map[string]any:
		for k, item := range x {
			if canon.HasLoneSurrogate(k) || hasLoneSurrogate(item) {
				return true
			}
		}
	}
	return false
}
