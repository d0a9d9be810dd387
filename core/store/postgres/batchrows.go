package postgres

import (
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agenttool/collab/core/store/sqltx"
)

// The answers of a batch (batch.go), read whole when the batch is read and
// handed back as rows to the statement that asked for each.

// bufferRows reads the next result of a batch whole: its rows, or what
// a statement that returns none did (its command tag). Scanning them
// needs conn, the connection they were read on.
func bufferRows(results pgx.BatchResults, conn *sql.Conn) (*bufferedRows, error) {
	rows, err := results.Query()
	if err != nil {
		return nil, err
	}
	out := &bufferedRows{conn: conn, fields: append([]pgconn.FieldDescription(nil), rows.FieldDescriptions()...)}
	for rows.Next() {
		raw := rows.RawValues()
		row := make([][]byte, len(raw))
		for i, v := range raw {
			if v != nil {
				row[i] = append(make([]byte, 0, len(v)), v...)
			}
		}
		out.rows = append(out.rows, row)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out.tag = rows.CommandTag()
	return out, nil
}

// bufferedRows are rows read in a batch, answered as sqltx.Rows and
// sqltx.Row. Scan converts each value with the connection's type map, as
// pgx's own rows do.
type bufferedRows struct {
	conn   *sql.Conn
	fields []pgconn.FieldDescription
	rows   [][][]byte
	at     int // the row Scan reads is rows[at-1]
	tag    pgconn.CommandTag
}

func (b *bufferedRows) Next() bool {
	if b.at >= len(b.rows) {
		return false
	}
	b.at++
	return true
}

func (b *bufferedRows) Scan(dest ...any) error {
	if b.at == 0 || b.at > len(b.rows) {
		return fmt.Errorf("scan batch rows: no current row")
	}
	row := b.rows[b.at-1]
	if len(dest) != len(row) {
		return fmt.Errorf("scan batch rows: %d destinations for %d columns", len(dest), len(row))
	}
	return b.conn.Raw(func(driverConn any) error {
		m := driverConn.(*stdlib.Conn).Conn().TypeMap()
		for i, d := range dest {
			if err := m.Scan(b.fields[i].DataTypeOID, b.fields[i].Format, row[i], d); err != nil {
				return fmt.Errorf("scan column %s: %w", b.fields[i].Name, err)
			}
		}
		return nil
	})
}

func (b *bufferedRows) Err() error   { return nil }
func (b *bufferedRows) Close() error { return nil }

// firstRow answers QueryRowContext from batch rows: the first row,
// sql.ErrNoRows when there is none.
type firstRow struct {
	rows sqltx.Rows
	err  error
}

func (r firstRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	if !r.rows.Next() {
		return sql.ErrNoRows
	}
	return r.rows.Scan(dest...)
}
