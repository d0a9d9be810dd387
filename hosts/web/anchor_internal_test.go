package web

import (
	"testing"
	"unicode/utf8"

	"github.com/agenttool/collab/core/anchor"
)

// A ledger string cut through an emoji keeps its high surrogate as WTF-8
// (so collab_anchor_status can echo it as the reference does); the page
// must still be valid UTF-8, showing one replacement character for it.
func TestAnchorPageShowsAKeptSurrogateAsOneReplacementCharacter(t *testing.T) {
	lone := "net\xed\xa0\xbd" // WTF-8 for U+D83D
	tx := "0xab\xed\xa0\xbd"
	ref := &anchor.Ref{HeadHash: "h", Network: lone, Status: "confirmed", TxHash: &tx}
	got := displayableRef(ref)
	for name, v := range map[string]string{"network": got.Network, "tx_hash": *got.TxHash} {
		if !utf8.ValidString(v) {
			t.Errorf("%s = %q, not valid UTF-8", name, v)
		}
	}
	if got.Network != "net\uFFFD" || *got.TxHash != "0xab\uFFFD" {
		t.Errorf("network %q, tx_hash %q: want one U+FFFD for the surrogate", got.Network, *got.TxHash)
	}
	if ref.Network != lone || tx != "0xab\xed\xa0\xbd" {
		t.Error("the checked status was changed; only the page's copy may be")
	}
	if displayableRef(nil) != nil {
		t.Error("no anchor must stay no anchor")
	}
}
