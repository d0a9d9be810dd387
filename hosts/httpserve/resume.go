package httpserve

// InstanceHeader names the client incarnation that wants its bound collab
// session back across MCP sessions (reconnects, restarts of the host or
// the server). Its value follows client_instance_id's pattern.
const InstanceHeader = "X-Collab-Client-Instance"

// The index from (principal, instance) to the session that pair last
// bound is core/seat.ResumeIndex.
