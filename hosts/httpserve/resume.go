package httpserve

// InstanceHeader names the client incarnation that wants its bound collab
// session back across MCP sessions (reconnects, restarts of the host or
// the server). Its value follows client_instance_id's pattern.
const InstanceHeader = "X-Collab-Client-Instance"

// validInstance reports whether s follows client_instance_id's pattern,
// ^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$. Checked by hand: that expression
// compiled at package initialisation cost every process start (the stdio
// server's included) over 2,000 allocations.
func validInstance(s string) bool {
	if len(s) == 0 || len(s) > 200 || !isAlnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '_' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// The index from (principal, instance) to the session that pair last
// bound is core/seat.ResumeIndex.
