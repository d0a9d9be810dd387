package notice

import (
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/wake"
	"github.com/agenttool/collab/hosts/termtext"
)

// pushListed is how many notices one typed line spells out; the rest are
// counted.
const pushListed = 3

// pushLine is the one line push types for a batch of notices. It always
// starts with "collab:" (so no agent reads it as a slash, shell or memory
// command), holds no control character (termtext.Label escapes them, line
// feeds included, so it stays one line and cannot end a bracketed paste)
// and no token-shaped word (wake.Redact, plus scrub for the session's own
// token and credential directory). It ends by saying what to do.
func pushLine(ns []wake.Notice, scrub func(string) string) string {
	items := make([]string, 0, pushListed)
	for i, n := range ns {
		if i == pushListed {
			items = append(items, fmt.Sprintf("and %d more", len(ns)-pushListed))
			break
		}
		text := termtext.Label(wake.Redact(scrub(n.Text)))
		if n.Sequence != 0 {
			text = fmt.Sprintf("#%d %s", n.Sequence, text)
		}
		items = append(items, text)
	}
	head := "collab: "
	if len(ns) > 1 {
		head = fmt.Sprintf("collab: %d notices for you: ", len(ns))
	}
	return head + strings.Join(items, "; ") + " — call collab_next"
}
