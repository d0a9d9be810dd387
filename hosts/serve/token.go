package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/command"
)

// Tokens manages the bearer tokens of `serve`: add prints a new
// token once (only its hash is kept), list shows names and expiry, revoke
// removes one. A running server sees each change on its next request.
func Tokens(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: agenttool-collab-mcp token add NAME [--expires D] [--db FILE] [--json]")
		fmt.Fprintln(w, "       agenttool-collab-mcp token list [--db FILE] [--json]")
		fmt.Fprintln(w, "       agenttool-collab-mcp token revoke NAME [--db FILE]")
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	verb, rest := args[0], args[1:]
	if verb == "-h" || verb == "--help" || verb == "help" {
		usage(stdout)
		return 0
	}
	synopsis := map[string]string{"add": "token add NAME [--expires D] [--db FILE] [--json]",
		"list": "token list [--db FILE] [--json]", "revoke": "token revoke NAME [--db FILE]"}[verb]
	if synopsis == "" {
		fmt.Fprintf(stderr, "token: unknown action %q\n", verb)
		usage(stderr)
		return 2
	}
	c := command.NewParser("token "+verb, synopsis)
	db := c.Flags.String("db", "", "database file whose token file to use (default: the one the server would open)")
	asJSON := c.Flags.Bool("json", false, "print JSON for scripts")
	var expires *string
	if verb == "add" {
		expires = c.Flags.String("expires", "", "expire after D (e.g. 30d, 12h)")
	}
	wantNames := 1
	if verb == "list" {
		wantNames = 0
	}
	names, code, done := c.Parse(rest, wantNames, wantNames, stdout, stderr)
	if done {
		return code
	}
	var name string
	if len(names) == 1 {
		name = names[0]
	}
	path, err := tokenFile(*db)
	if err != nil {
		return command.Failure(stderr, err)
	}
	switch verb {
	case "add":
		return tokenAdd(stdout, stderr, path, name, *expires, *asJSON)
	case "revoke":
		if err := tokens.Revoke(path, name); err != nil {
			return command.Failure(stderr, fmt.Errorf("revoke %s: %w", name, err))
		}
		fmt.Fprintf(stdout, "revoked %s; its next request is refused\n", name)
		return 0
	default:
		return tokenList(stdout, stderr, path, *asJSON)
	}
}

func tokenFile(db string) (string, error) {
	if db == "" {
		choice, err := place.Database(place.OS())
		if err != nil {
			return "", err
		}
		db = choice.Path
	}
	return tokens.PathFor(db)
}

func tokenAdd(stdout, stderr io.Writer, path, name, expires string, asJSON bool) int {
	ttl, err := parseExpiry(expires)
	if err != nil {
		fmt.Fprintf(stderr, "✖ %v\n", err)
		return 2
	}
	tok, err := tokens.Add(path, name, ttl, time.Now())
	if errors.Is(err, tokens.ErrExists) {
		return command.Failure(stderr, fmt.Errorf("%s: %w", name, err))
	}
	if err != nil {
		return command.Failure(stderr, err)
	}
	if asJSON {
		json.NewEncoder(stdout).Encode(map[string]string{"name": name, "token": tok})
		return 0
	}
	fmt.Fprintln(stdout, tok)
	if command.IsTerminal(stdout) {
		fmt.Fprintf(stderr, "· token for %s printed above; it is shown only this once\n", name)
	}
	return 0
}

func tokenList(stdout, stderr io.Writer, path string, asJSON bool) int {
	entries, err := tokens.Read(path)
	if err != nil {
		return command.Failure(stderr, err)
	}
	now := time.Now()
	if asJSON {
		type row struct {
			Name      string     `json:"name"`
			CreatedAt time.Time  `json:"created_at"`
			ExpiresAt *time.Time `json:"expires_at"`
			Expired   bool       `json:"expired"`
		}
		rows := []row{}
		for _, e := range entries {
			rows = append(rows, row{e.Name, e.CreatedAt, e.ExpiresAt, e.Expired(now)})
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rows)
		return 0
	}
	if len(entries) == 0 {
		fmt.Fprintln(stdout, "no tokens; add one with: agenttool-collab-mcp token add NAME")
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCREATED\tEXPIRES")
	for _, e := range entries {
		exp := "never"
		if e.ExpiresAt != nil {
			exp = e.ExpiresAt.Local().Format(time.DateTime)
			if e.Expired(now) {
				exp += " (expired)"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, e.CreatedAt.Local().Format(time.DateTime), exp)
	}
	tw.Flush()
	return 0
}
