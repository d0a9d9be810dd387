package place

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
)

// PersonCredential is where the CLI keeps a person's own session
// credential for the database at db and the workspace ws:
// $XDG_STATE_HOME/agenttool/collab-person/<digest>.json when XDG_STATE_HOME
// is non-empty (a relative value stays relative), else
// <home>/.local/state/agenttool/collab-person/<digest>.json. The digest is
// the first 12 bytes of SHA-256 over the absolute database path, a NUL
// and ws, in hex; a relative db is resolved against env's working
// directory. A PostgreSQL URL is digested without its password (and with
// its scheme written postgres://), as PostgresFolder keys it.
func PersonCredential(env Env, db, ws string) (string, error) {
	base := env.Get(EnvXDGState)
	if base == "" {
		home, err := env.Home()
		if err != nil {
			return "", err
		}
		base = filepath.Join(home, ".local", "state")
	}
	abs := db
	if IsPostgres(db) {
		abs = postgresKey(db)
	} else if !filepath.IsAbs(db) {
		cwd, err := env.cwd()
		if err != nil {
			return "", fmt.Errorf("resolve database path: %w", err)
		}
		abs = filepath.Join(cwd, db)
	}
	abs = filepath.Clean(abs)
	sum := sha256.Sum256([]byte(abs + "\x00" + ws))
	return filepath.Join(base, dataFolder, "collab-person", hex.EncodeToString(sum[:12])+".json"), nil
}
