package normalize_test

import (
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

const hash64 = "69b4c3205a9b077138441865a75212d97dbd16156a567daf96383bc46eb0295d"

func TestSHA256LowerCasesHex(t *testing.T) {
	cases := []struct{ in, want string }{
		{hash64, hash64},
		{"69B4C3205A9B077138441865A75212D97DBD16156A567DAF96383BC46EB0295D", hash64},
	}
	for _, c := range cases {
		if got, err := normalize.SHA256(c.in); err != nil || got != c.want {
			t.Errorf("SHA256(%q) = %q, %v", c.in, got, err)
		}
	}
}

func TestSHA256Refusals(t *testing.T) {
	for _, in := range []string{
		"", hash64[:63], hash64 + "0", " " + hash64, hash64[:63] + "g",
		hash64[:63] + "\uFF21", // fullwidth A lowers to fullwidth a, not hex
	} {
		_, err := normalize.SHA256(in)
		wantRefusal(t, err, "invalid_sha256", "64 hexadecimal")
	}
}

func TestGitObjectIDAcceptsSHA1AndSHA256Names(t *testing.T) {
	for _, in := range []string{hash64[:40], hash64[:41], hash64, "ABCDEF" + hash64[6:40]} {
		got, err := normalize.GitObjectID(in)
		if err != nil || got != normalize.LowerJS(in) {
			t.Errorf("GitObjectID(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", hash64[:39], hash64 + "a", hash64[:39] + "z", hash64[:40] + "\n"} {
		_, err := normalize.GitObjectID(in)
		wantRefusal(t, err, "invalid_git_object_id", "40 to 64")
	}
}
