package cli

import (
	"fmt"
	"reflect"

	"github.com/agenttool/collab/hosts/termtext"
)

// shown is text that is already safe for a terminal: escaped journal text,
// or this package's own colour codes around it. safef leaves it as it is.
type shown string

// body marks journal free text (a report body, a summary, a decision)
// whose line feeds and tabs are printed as written; every other control
// character in it is still escaped.
type body string

// safef is fmt.Sprintf for terminal text: every argument that can carry
// journal text (strings and named string types, byte slices, errors,
// Stringers, anything else formatted with %v) is escaped with
// termtext.Label, a body with termtext.Body; numbers and booleans and
// shown text pass as they are. The format itself is this package's own.
func safef(format string, a ...any) shown {
	args := make([]any, len(a))
	for i, v := range a {
		args[i] = safeArg(v)
	}
	return shown(fmt.Sprintf(format, args...))
}

func safeArg(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return v
	case shown:
		return string(x)
	case body:
		return termtext.Body(string(x))
	case []byte:
		return termtext.Label(string(x))
	case error:
		return termtext.Label(x.Error())
	case fmt.Stringer:
		return termtext.Label(x.String())
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String:
		return termtext.Label(rv.String())
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 { // json.RawMessage and other named byte slices
			return termtext.Label(string(rv.Bytes()))
		}
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return v
	}
	return termtext.Label(fmt.Sprint(v))
}
