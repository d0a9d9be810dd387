package credfile

import (
	"bytes"
	"encoding/json"
)

// Format is the value of the "format" member that identifies a session
// credential file.
const Format = "agenttool.collab/session-file/1"

// Cursor is the last acknowledged journal position recorded in a credential
// file: an exact epoch, sequence and event hash.
type Cursor struct {
	EpochID  string `json:"epoch_id"`
	Sequence int64  `json:"sequence"`
	Hash     string `json:"hash"`
}

// Credential is collab's one session credential type (store.Credential is
// the same type): what authenticates a credential-bound session and what
// one credential file holds. A newer Generation (a later resume) fences
// every older one. LastCursor, the host's last acknowledged position, is
// nil when the file carries no last_cursor member; only a resume reads it.
type Credential struct {
	SessionID  string
	Token      string
	Generation int64
	LastCursor *Cursor
}

// fileBody fixes the member order of the written file: format, session_id,
// session_token, generation, last_cursor (omitted when nil).
type fileBody struct {
	Format       string  `json:"format"`
	SessionID    string  `json:"session_id"`
	SessionToken string  `json:"session_token"`
	Generation   int64   `json:"generation"`
	LastCursor   *Cursor `json:"last_cursor,omitempty"`
}

// encode renders c as compact JSON followed by one newline. HTML escaping is
// off so that the bytes match what JSON.stringify writes for the same values.
func encode(c Credential) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(fileBody{
		Format:       Format,
		SessionID:    c.SessionID,
		SessionToken: c.Token,
		Generation:   c.Generation,
		LastCursor:   c.LastCursor,
	})
	return buf.Bytes(), err
}

// isCursorHash reports whether s is 64 lower-case hexadecimal digits
// (^[a-f0-9]{64}$).
func isCursorHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// decode parses file content. Text that is not JSON at all yields
// session_file_read_failed; JSON of the wrong shape yields
// session_file_invalid. Members are matched case-sensitively and a repeated
// member keeps its last value, as JSON.parse does; unknown members are ignored.
func decode(data []byte) (Credential, error) {
	if !json.Valid(data) {
		return Credential{}, errReadFailed()
	}
	obj, ok := jsonObject(data)
	if !ok {
		return Credential{}, errFileInvalid()
	}
	c, ok := credentialFrom(obj)
	if !ok {
		return Credential{}, errFileInvalid()
	}
	return c, nil
}

func credentialFrom(obj map[string]json.RawMessage) (Credential, bool) {
	format, ok1 := jsonString(obj["format"])
	id, ok2 := jsonString(obj["session_id"])
	token, ok3 := jsonString(obj["session_token"])
	gen, ok4 := jsonSafeInteger(obj["generation"])
	if !ok1 || !ok2 || !ok3 || !ok4 || format != Format || gen < 1 {
		return Credential{}, false
	}
	c := Credential{SessionID: id, Token: token, Generation: gen}
	raw, present := obj["last_cursor"]
	if !present {
		return c, true
	}
	cur, ok := cursorFrom(raw)
	c.LastCursor = cur
	return c, ok
}

// cursorFrom validates a present last_cursor member; JSON null is invalid.
func cursorFrom(raw json.RawMessage) (*Cursor, bool) {
	obj, ok := jsonObject(raw)
	if !ok {
		return nil, false
	}
	epoch, ok1 := jsonString(obj["epoch_id"])
	seq, ok2 := jsonSafeInteger(obj["sequence"])
	hash, ok3 := jsonString(obj["hash"])
	if !ok1 || !ok2 || !ok3 || seq < 0 || !isCursorHash(hash) {
		return nil, false
	}
	return &Cursor{EpochID: epoch, Sequence: seq, Hash: hash}, true
}
