package mcp

// Args are a tool call's arguments after schema validation. Accessors
// assume validation already proved each present value has its schema's
// type, so they only distinguish present from absent.
type Args map[string]any

// String returns a required (or defaulted-to-empty) string argument.
func (a Args) String(name string) string {
	s, _ := a[name].(string)
	return s
}

// OptString returns an optional string argument, nil when absent.
func (a Args) OptString(name string) *string {
	if s, ok := a[name].(string); ok {
		return &s
	}
	return nil
}

// Has reports whether the argument was given.
func (a Args) Has(name string) bool {
	_, ok := a[name]
	return ok
}

// Int returns an integer argument (0 when absent).
func (a Args) Int(name string) int64 {
	f, _ := a[name].(float64)
	return int64(f)
}

// OptInt returns an optional integer argument, nil when absent.
func (a Args) OptInt(name string) *int64 {
	if f, ok := a[name].(float64); ok {
		n := int64(f)
		return &n
	}
	return nil
}

// Strings returns a string-array argument, nil when absent.
func (a Args) Strings(name string) []string {
	items, ok := a[name].([]any)
	if !ok {
		return nil
	}
	out := make([]string, len(items))
	for i, item := range items {
		out[i], _ = item.(string)
	}
	return out
}

// Object returns a nested object argument, nil when absent.
func (a Args) Object(name string) Args {
	if m, ok := a[name].(map[string]any); ok {
		return Args(m)
	}
	return nil
}
