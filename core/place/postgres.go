package place

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	neturl "net/url"
	"path/filepath"
	"strings"
)

// PostgresFolderName is the folder, inside the agenttool data folder,
// that holds one local folder per PostgreSQL journal (see PostgresFolder).
const PostgresFolderName = "postgres"

// IsPostgres reports whether a database setting names a PostgreSQL server
// rather than a SQLite file: it starts with postgres:// or postgresql://,
// the scheme in any case. Anything else is a SQLite path.
func IsPostgres(setting string) bool {
	scheme, _, ok := strings.Cut(setting, "://")
	if !ok {
		return false
	}
	return strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql")
}

// PostgresSecrets lists the passwords a PostgreSQL URL carries (the
// userinfo password and every query parameter whose name contains
// "password"), each decoded and in its escaped forms, so that a text that
// quotes the URL can be scrubbed of them.
func PostgresSecrets(setting string) []string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s, neturl.QueryEscape(s), neturl.PathEscape(s))
		}
	}
	u, err := neturl.Parse(setting)
	if err != nil {
		return out
	}
	if p, ok := u.User.Password(); ok {
		add(p)
	}
	for k, vs := range u.Query() {
		if strings.Contains(strings.ToLower(k), "password") {
			for _, v := range vs {
				add(v)
			}
		}
	}
	return out
}

// RedactPostgres returns a PostgreSQL URL without its secrets: the
// userinfo password and every query parameter whose name contains
// "password" (password, sslpassword) are removed; the rest is kept as
// written. A URL too malformed to parse loses its whole userinfo and
// query. It is what collab shows, logs and keys local files on, never the
// setting itself.
func RedactPostgres(setting string) string {
	u, err := neturl.Parse(setting)
	if err != nil {
		return redactUnparsed(setting)
	}
	if u.User != nil {
		u.User = neturl.User(u.User.Username())
	}
	u.RawQuery = withoutPasswords(u.RawQuery)
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// withoutPasswords drops, from a raw query, every parameter whose name
// contains "password" (in any case), keeping the others as written and in
// order (joined by '&', a ';' separator included). A parameter whose name
// cannot be decoded is dropped too.
func withoutPasswords(raw string) string {
	var kept []string
	parts := strings.FieldsFunc(raw, func(r rune) bool { return r == '&' || r == ';' })
	for _, part := range parts {
		name, _, _ := strings.Cut(part, "=")
		key, err := neturl.QueryUnescape(name)
		if err != nil || strings.Contains(strings.ToLower(key), "password") {
			continue
		}
		kept = append(kept, part)
	}
	return strings.Join(kept, "&")
}

// redactUnparsed keeps the scheme and the host part after the last '@'
// of the authority, and drops the userinfo, path tail after '?' and '#'.
func redactUnparsed(setting string) string {
	scheme, rest, _ := strings.Cut(setting, "://")
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	auth, path, _ := strings.Cut(rest, "/")
	if i := strings.LastIndex(auth, "@"); i >= 0 {
		auth = auth[i+1:]
	}
	if path != "" {
		return scheme + "://" + auth + "/" + path
	}
	return scheme + "://" + auth
}

// PostgresFolder returns the local folder of the PostgreSQL journal a
// setting names: <data home>/agenttool/postgres/<host>-<port>-<database>-<hash>,
// the data home chosen as Database chooses it ($XDG_DATA_HOME, else
// <home>/.local/share). The name is derived from the redacted URL (its
// scheme read as postgres), so it never holds a secret, is the same for
// every process of the machine that uses the same URL, and differs for
// URLs naming another server, database or user; the readable part is
// reduced to letters, digits, '.', '_' and '-'. A non-empty
// AGENTOOL_COLLAB_LOCAL_DIR is used instead, made absolute against env's
// working directory. Nothing is created.
func PostgresFolder(env Env, setting string) (string, error) {
	if dir := env.Get(EnvLocalDir); dir != "" {
		if filepath.IsAbs(dir) {
			return filepath.Clean(dir), nil
		}
		cwd, err := env.cwd()
		if err != nil {
			return "", fmt.Errorf("resolve the relative %s: %w", EnvLocalDir, err)
		}
		return filepath.Join(cwd, dir), nil
	}
	home, err := dataHome(env)
	if err != nil {
		return "", err
	}
	key := postgresKey(setting)
	sum := sha256.Sum256([]byte(key))
	name := postgresLabel(key) + "-" + hex.EncodeToString(sum[:])[:12]
	return filepath.Join(home, dataFolder, PostgresFolderName, name), nil
}

// postgresKey is the redacted setting with its scheme written one way.
func postgresKey(setting string) string {
	r := RedactPostgres(setting)
	if _, rest, ok := strings.Cut(r, "://"); ok {
		return "postgres://" + rest
	}
	return r
}

// postgresLabel is the readable part of the folder name: host, port and
// database as the URL writes them ("default" for what it leaves to the
// PG* environment), a host given as ?host= included.
func postgresLabel(key string) string {
	host, port, db := "", "", ""
	if u, err := neturl.Parse(key); err == nil {
		host, port, db = u.Hostname(), u.Port(), strings.TrimPrefix(u.Path, "/")
		if host == "" {
			host = u.Query().Get("host")
		}
		if db == "" {
			db = u.Query().Get("dbname")
		}
	}
	part := func(s string) string {
		s = strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
				return r
			}
			return '-'
		}, s)
		s = strings.Trim(s, "-.")
		if len(s) > 32 {
			s = s[len(s)-32:]
		}
		if s == "" {
			return "default"
		}
		return s
	}
	return fmt.Sprintf("%s-%s-%s", part(host), part(port), part(db))
}

// dataHome is $XDG_DATA_HOME (a relative value resolved against env's
// working directory), else <home>/.local/share: the folder Database puts
// the agenttool folder in.
func dataHome(env Env) (string, error) {
	if v := env.Get(EnvXDGData); v != "" {
		if !filepath.IsAbs(v) {
			cwd, err := env.cwd()
			if err != nil {
				return "", fmt.Errorf("resolve the relative %s: %w", EnvXDGData, err)
			}
			v = filepath.Join(cwd, v)
		}
		return v, nil
	}
	home, err := env.Home()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share"), nil
}

// Shown is a database setting as collab shows it: a PostgreSQL URL without
// its password (RedactPostgres), anything else unchanged.
func Shown(setting string) string {
	if IsPostgres(setting) {
		return RedactPostgres(setting)
	}
	return setting
}
