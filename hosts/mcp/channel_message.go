package mcp

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/agenttool/collab/core/wake"
)

// channelParams are a notifications/claude/channel's params: the text the
// model reads, and meta that Claude Code shows as attributes of the
// <channel> tag around it.
type channelParams struct {
	Content string            `json:"content"`
	Meta    map[string]string `json:"meta,omitempty"`
}

func (c channelParams) encode() (json.RawMessage, error) {
	c.Meta = channelMeta(c.Meta)
	return json.Marshal(c)
}

// metaKey is the shape Claude Code keeps a meta key in (measured with
// Claude Code 2.1.197: other keys are dropped).
var metaKey = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// hostMetaKeys are attributes Claude Code writes on the <channel> tag
// itself; a meta key of the same name is not replaced but written a
// second time (source="plugin:…" source="…"), so it is never sent.
var hostMetaKeys = map[string]bool{"source": true}

// channelMeta returns the meta entries Claude Code keeps and shows once:
// keys of metaKey's shape that the host does not write itself. Empty
// values are left out.
func channelMeta(meta map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range meta {
		if v == "" || !metaKey.MatchString(k) || hostMetaKeys[k] {
			continue
		}
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// channelMessage is the channel message for one notice: one short line
// that says what happened and that collab_next reads it, with the facts
// a model needs to act as meta (never a token or a path).
func channelMessage(n wake.Notice, workspaceID string) channelParams {
	text := "collab: " + n.Text + " — call collab_next"
	if n.Sequence != 0 {
		text = "collab: #" + strconv.FormatInt(n.Sequence, 10) + " " + n.Text + " — call collab_next to read it"
	}
	meta := map[string]string{"kind": string(n.Kind), "workspace_id": workspaceID, "task_id": n.TaskID, "from": n.From}
	if n.Sequence != 0 {
		meta["sequence"] = strconv.FormatInt(n.Sequence, 10)
	}
	return channelParams{Content: text, Meta: meta}
}
