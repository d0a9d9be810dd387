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

// anthropicMock is a loopback Anthropic Messages API. The first request
// that offers Tool gets one tool_use of it with Input; once a tool_result
// comes back it ends the turn. It records every tool list it was offered
// and every tool result it received.
type anthropicMock struct {
	Tool  string
	Input map[string]any

	// Mention is a text the test expects in some request (the skill's
	// name); mentioned records whether it appeared.
	Mention   string
	mentioned bool

	mu      sync.Mutex
	offered [][]string
	results []string
}

func (m *anthropicMock) start(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return srv
}

type anthropicRequest struct {
	Stream bool `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

type contentBlock struct {
	Type    string          `json:"type"`
	Content json.RawMessage `json:"content"`
	IsError bool            `json:"is_error"`
}

func (m *anthropicMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if strings.Contains(r.URL.Path, "count_tokens") {
		writeJSON(w, map[string]any{"input_tokens": 10})
		return
	}
	body, err := io.ReadAll(r.Body)
	var req anthropicRequest
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m.noteMention(body)
	offered, result, hasResult := m.record(req)
	content := []map[string]any{{"type": "text", "text": "E2E-IDLE"}}
	stop := "end_turn"
	switch {
	case hasResult:
		content[0]["text"] = "E2E-DONE " + result
	case contains(offered, m.Tool):
		content = []map[string]any{{"type": "tool_use", "id": "toolu_e2e", "name": m.Tool, "input": m.Input}}
		stop = "tool_use"
	}
	if req.Stream {
		streamAnthropic(w, content, stop)
		return
	}
	writeJSON(w, map[string]any{"id": "msg_e2e", "type": "message", "role": "assistant", "model": "mock",
		"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 1}})
}

// record notes the request's tools and any tool result it carries.
func (m *anthropicMock) record(req anthropicRequest) (offered []string, result string, hasResult bool) {
	for _, tool := range req.Tools {
		offered = append(offered, tool.Name)
	}
	for _, msg := range req.Messages {
		var blocks []contentBlock
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				result, hasResult = toolResultText(b), true
			}
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

// toolResultText flattens a tool_result's content (a string or text
// blocks); an error result is prefixed with "ERROR:".
func toolResultText(b contentBlock) string {
	var text string
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		text = s
	} else {
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(b.Content, &parts)
		for _, p := range parts {
			text += p.Text
		}
	}
	if b.IsError {
		return "ERROR: " + text
	}
	return text
}

func (m *anthropicMock) snapshot() (offered [][]string, results []string, mentioned bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]string{}, m.offered...), append([]string{}, m.results...), m.mentioned
}

func (m *anthropicMock) noteMention(body []byte) {
	if m.Mention != "" && bytes.Contains(body, []byte(m.Mention)) {
		m.mu.Lock()
		m.mentioned = true
		m.mu.Unlock()
	}
}

func streamAnthropic(w http.ResponseWriter, content []map[string]any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_e2e", "type": "message",
		"role": "assistant", "model": "mock", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": 1, "output_tokens": 1}}})
	for i, c := range content {
		if c["type"] == "text" {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		} else {
			input, _ := json.Marshal(c["input"])
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
