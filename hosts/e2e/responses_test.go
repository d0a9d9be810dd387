package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// responsesMock is a loopback OpenAI Responses API for Codex. The first
// request that offers Tool inside Namespace gets one function call of it
// with Arguments; once its output comes back it answers with text. It
// records the tools every request offered and every output it received.
type responsesMock struct {
	Namespace, Tool string
	Arguments       map[string]any

	// Mention is a text the test expects in some request (the skill's
	// name); mentioned records whether it appeared.
	Mention   string
	mentioned bool

	mu      sync.Mutex
	offered [][]string // "namespace/tool" or "tool"
	results []string
}

func (m *responsesMock) start(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return srv
}

type responsesRequest struct {
	Tools []struct {
		Type  string `json:"type"`
		Name  string `json:"name"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"tools"`
	Input []struct {
		Type   string          `json:"type"`
		Output json.RawMessage `json:"output"`
	} `json:"input"`
}

func (m *responsesMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		writeJSON(w, map[string]any{"models": []any{}})
		return
	}
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	var req responsesRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.noteMention(body)
	offered, result, hasResult := m.record(req)
	var item map[string]any
	switch {
	case hasResult:
		item = textItem("E2E-DONE " + result)
	case contains(offered, m.Namespace+"/"+m.Tool):
		args, _ := json.Marshal(m.Arguments)
		item = map[string]any{"type": "function_call", "id": "fc_e2e", "call_id": "call_e2e",
			"namespace": m.Namespace, "name": m.Tool, "arguments": string(args)}
	default:
		item = textItem("E2E-IDLE")
	}
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
	}
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_e2e"}})
	ev(map[string]any{"type": "response.output_item.done", "item": item})
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": "resp_e2e", "usage": map[string]any{
		"input_tokens": 1, "input_tokens_details": nil, "output_tokens": 1, "output_tokens_details": nil, "total_tokens": 2}}})
}

func textItem(text string) map[string]any {
	return map[string]any{"type": "message", "role": "assistant", "id": "msg_e2e",
		"content": []map[string]any{{"type": "output_text", "text": text}}}
}

func (m *responsesMock) record(req responsesRequest) (offered []string, result string, hasResult bool) {
	for _, tool := range req.Tools {
		if len(tool.Tools) == 0 {
			offered = append(offered, tool.Name)
		}
		for _, sub := range tool.Tools {
			offered = append(offered, tool.Name+"/"+sub.Name)
		}
	}
	for _, in := range req.Input {
		if in.Type == "function_call_output" {
			result, hasResult = outputText(in.Output), true
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(offered) > 0 {
		m.offered = append(m.offered, offered)
	}
	if hasResult {
		m.results = append(m.results, result)
	}
	return offered, result, hasResult
}

// outputText flattens a function_call_output (a string or text items).
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func (m *responsesMock) snapshot() (offered [][]string, results []string, mentioned bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]string{}, m.offered...), append([]string{}, m.results...), m.mentioned
}

func (m *responsesMock) noteMention(body []byte) {
	if m.Mention != "" && bytes.Contains(body, []byte(m.Mention)) {
		m.mu.Lock()
		m.mentioned = true
		m.mu.Unlock()
	}
}
