package sqlite

import (
	"context"
	"fmt"
	"strings"
)

// column is what an open needs of a table's column to check foreign keys.
type column struct {
	name, kind string
	pk         int
}

// readChildTables returns every table of the file that has foreign keys,
// with how an open can check it (see foreign_keys.go).
func readChildTables(ctx context.Context, q Querier) ([]childTable, error) {
	names, withoutRowid, err := readTableList(ctx, q)
	if err != nil {
		return nil, err
	}
	cols, err := readColumns(ctx, q)
	if err != nil {
		return nil, err
	}
	keys, err := readForeignKeys(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []childTable
	for _, name := range names {
		if len(keys[name]) == 0 {
			continue
		}
		t := childTable{name: name, keys: keys[name]}
		named := true
		for i := range t.keys {
			named = named && nameParents(&t.keys[i], cols[name], cols)
		}
		if named {
			t.byIndex = leadsPrimaryKey(t.keys, cols[name])
			t.byRowid = !t.byIndex && !withoutRowid[name] && !shadowsRowid(cols[name])
		}
		out = append(out, t)
	}
	return out, nil
}

func readTableList(ctx context.Context, q Querier) ([]string, map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT name, wr FROM pragma_table_list
WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, nil, fmt.Errorf("list tables: %w", err)
	}
	defer rows.Close()
	var names []string
	withoutRowid := map[string]bool{}
	for rows.Next() {
		var name string
		var wr bool
		if err := rows.Scan(&name, &wr); err != nil {
			return nil, nil, fmt.Errorf("list tables: %w", err)
		}
		names = append(names, name)
		withoutRowid[name] = wr
	}
	return names, withoutRowid, rows.Err()
}

// readColumns returns every table's columns, in one query (an open
// pays for each statement it prepares).
func readColumns(ctx context.Context, q Querier) (map[string][]column, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, p.name, upper(p.type), p.pk
FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, fmt.Errorf("read the columns: %w", err)
	}
	defer rows.Close()
	out := map[string][]column{}
	for rows.Next() {
		var table string
		var c column
		if err := rows.Scan(&table, &c.name, &c.kind, &c.pk); err != nil {
			return nil, fmt.Errorf("read the columns: %w", err)
		}
		out[table] = append(out[table], c)
	}
	return out, rows.Err()
}

// readForeignKeys returns every table's foreign keys as declared (parent
// columns left implicit stay empty), in one query.
func readForeignKeys(ctx context.Context, q Querier) (map[string][]foreignKey, error) {
	rows, err := q.QueryContext(ctx, `SELECT m.name, f.id, f."table", f."from", coalesce(f."to", '')
FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`)
	if err != nil {
		return nil, fmt.Errorf("read the foreign keys: %w", err)
	}
	defer rows.Close()
	out := map[string][]foreignKey{}
	lastTable, lastID := "", int64(-1)
	for rows.Next() {
		var table, parent, child, to string
		var id int64
		if err := rows.Scan(&table, &id, &parent, &child, &to); err != nil {
			return nil, fmt.Errorf("read the foreign keys: %w", err)
		}
		if table != lastTable || id != lastID {
			out[table] = append(out[table], foreignKey{parent: parent})
			lastTable, lastID = table, id
		}
		k := &out[table][len(out[table])-1]
		k.children = append(k.children, child)
		k.parents = append(k.parents, to)
	}
	return out, rows.Err()
}

// nameParents fills in parent columns a key leaves implicit (the parent's
// primary key) and reports whether the key can be checked by comparing
// columns of equal declared types.
func nameParents(k *foreignKey, child []column, cols map[string][]column) bool {
	parent, ok := cols[k.parent]
	if !ok {
		return false
	}
	if k.parents[0] == "" {
		pk := primaryKey(parent)
		if len(pk) != len(k.children) {
			return false
		}
		k.parents = pk
	}
	for i := range k.children {
		c, okc := find(child, k.children[i])
		p, okp := find(parent, k.parents[i])
		if !okc || !okp || c.kind != p.kind {
			return false
		}
	}
	return true
}

func primaryKey(cols []column) []string {
	names := make([]string, 0, len(cols))
	for n := 1; ; n++ {
		found := false
		for _, c := range cols {
			if c.pk == n {
				names, found = append(names, c.name), true
			}
		}
		if !found {
			return names
		}
	}
}

func find(cols []column, name string) (column, bool) {
	for _, c := range cols {
		if strings.EqualFold(c.name, name) {
			return c, true
		}
	}
	return column{}, false
}

// leadsPrimaryKey reports whether the table's only foreign key is one
// column that leads its primary key, so the key's index lists its
// distinct values in order.
func leadsPrimaryKey(keys []foreignKey, cols []column) bool {
	if len(keys) != 1 || len(keys[0].children) != 1 {
		return false
	}
	pk := primaryKey(cols)
	return len(pk) > 0 && strings.EqualFold(pk[0], keys[0].children[0])
}

// shadowsRowid reports whether a column takes a name SQLite otherwise
// gives the rowid.
func shadowsRowid(cols []column) bool {
	for _, c := range cols {
		switch strings.ToLower(c.name) {
		case "rowid", "_rowid_", "oid":
			return true
		}
	}
	return false
}
