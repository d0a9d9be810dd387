package anchor

import "io"

// LedgerProtocol is the protocol string of the sidecar ledger format.
const LedgerProtocol = "agenttool.collab-zerone-ledger/0.1"

// MaxLedgerBytes is the largest ledger file that is read (4 MiB).
const MaxLedgerBytes = 4 << 20

// entry is one ledger anchor that has every member the check relies on.
// Optional members stay raw and are typed only when a Ref is built.
type entry struct {
	workspaceID string
	epochID     string
	sequence    int64
	headHash    string
	network     string
	status      string
	members     map[string][]byte
}

// readLedger returns the ledger bytes, or false when the path cannot be
// opened, is not a regular file, is larger than MaxLedgerBytes, or fails to
// read. At most the size reported at open time is read.
func readLedger(path string) ([]byte, bool) {
	f, err := openLedger(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > MaxLedgerBytes {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, fi.Size()))
	if err != nil {
		return nil, false
	}
	return data, true
}

// parseLedger returns the usable entries of a ledger document, or false
// when the document is not JSON, not an object with protocol exactly
// LedgerProtocol, or has an anchors member that is not an array. Entries
// lacking a required member, or of the wrong type, are skipped. The bytes
// are read as the reference reads them: decoded as UTF-8 with replacement
// (ledgerText), then parsed without a nesting limit (jsonscan.go).
func parseLedger(data []byte) ([]entry, bool) {
	value, ok := parseDocument(ledgerText(data))
	if !ok {
		return nil, false
	}
	doc, ok := jsonObject(value)
	if !ok {
		return nil, false
	}
	if protocol, ok := jsonString(doc["protocol"]); !ok || protocol != LedgerProtocol {
		return nil, false
	}
	items, ok := jsonArray(doc["anchors"])
	if !ok {
		return nil, false
	}
	entries := make([]entry, 0, len(items))
	for _, item := range items {
		if e, ok := entryFrom(item); ok {
			entries = append(entries, e)
		}
	}
	return entries, true
}

// entryFrom accepts an anchor with string workspace_id, epoch_id, head_hash,
// network and status and a safe-integer sequence; other members are optional.
func entryFrom(raw []byte) (entry, bool) {
	m, ok := jsonObject(raw)
	if !ok {
		return entry{}, false
	}
	e := entry{members: m}
	var okWS, okEpoch, okSeq, okHash, okNet, okStatus bool
	e.workspaceID, okWS = jsonString(m["workspace_id"])
	e.epochID, okEpoch = jsonString(m["epoch_id"])
	e.sequence, okSeq = jsonSafeInteger(m["sequence"])
	e.headHash, okHash = jsonString(m["head_hash"])
	e.network, okNet = jsonString(m["network"])
	e.status, okStatus = jsonString(m["status"])
	return e, okWS && okEpoch && okSeq && okHash && okNet && okStatus
}
