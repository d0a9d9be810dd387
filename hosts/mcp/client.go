package mcp

import (
	"context"
	"encoding/json"
	"unicode/utf8"
)

// clientLimit bounds what is kept of a client's self-declared name and
// version.
const clientLimit = 200

// noteClient records the name and version the client declared in
// initialize as the host of the sessions this process binds, when the
// process records hosts at all (ProcessConfig.Host). It takes the turn,
// so it never interleaves with a call; a client that sends nothing
// usable changes nothing.
func (p *Process) noteClient(ctx context.Context, params json.RawMessage) {
	if p.host.Kind == "" {
		return
	}
	var init struct {
		ClientInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"clientInfo"`
	}
	if json.Unmarshal(params, &init) != nil || init.ClientInfo.Name == "" {
		return
	}
	if err := p.takeTurn(ctx); err != nil {
		return
	}
	defer p.endTurn()
	p.host.Client, p.host.ClientVersion = clientText(init.ClientInfo.Name), clientText(init.ClientInfo.Version)
	p.seat.Describe(ctx, p.host)
}

// clientText cuts s to clientLimit runes and drops invalid UTF-8.
func clientText(s string) string {
	s = string([]rune(s)) // invalid bytes become U+FFFD
	if utf8.RuneCountInString(s) > clientLimit {
		s = string([]rune(s)[:clientLimit])
	}
	return s
}
