package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// verification is the outcome the badge shows.
type verification struct {
	Valid  bool  `json:"valid"`
	Events int64 `json:"events"`
	Head   int64 `json:"head"`
}

// verifyPage verifies the chain and shows the outcome: the badge's target
// when script is off.
func (s *Server) verifyPage(r *http.Request, d *pageData) (string, error) {
	var done int64
	ok, err := s.opts.Store.VerifyWithProgress(r.Context(), d.WS.ID, func(n, _ int64) { done = n })
	d.Title, d.Tab = "Verification", "timeline"
	d.Body = verification{Valid: ok, Events: done, Head: d.WS.EventHeadSequence}
	return "verify", err
}

// verifyStream verifies the chain and streams progress as server-sent
// events ("progress" with done/total, then one "result").
func (s *Server) verifyStream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ws := r.PathValue("ws")
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "retry: 86400000\n\n")
	fl.Flush()
	last := time.Time{}
	var done, head int64
	valid, err := s.opts.Store.VerifyWithProgress(r.Context(), ws, func(n, total int64) {
		done, head = n, total
		if time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		fmt.Fprintf(w, "event: progress\ndata: {\"done\":%d,\"total\":%d}\n\n", n, total)
		fl.Flush()
	})
	if err != nil {
		fmt.Fprintf(w, "event: failure\ndata: %q\n\n", "verification could not run")
		fl.Flush()
		return
	}
	b, _ := json.Marshal(verification{Valid: valid, Events: done, Head: head})
	fmt.Fprintf(w, "event: result\ndata: %s\n\n", b)
	fl.Flush()
}
