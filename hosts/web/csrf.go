package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The cross-site request defence of the acting forms has three parts,
// each enough on its own against a page of another site:
//
//   - the Host and Origin policy every request meets first (hostguard):
//     a foreign Host or a foreign Origin is refused before anything else;
//   - same-origin evidence on every form post: Sec-Fetch-Site
//     "same-origin" when the browser sends it (and nothing else when it
//     does), otherwise an Origin or, failing that, a Referer naming this
//     view; a post with none of them is refused;
//   - a per-page token: every page render signs a fresh nonce, the time
//     and the workspace with a key that lives only in this process,
//     bound to a random cookie of the browser (HttpOnly, SameSite=Strict).
//     Another site can neither read a page to learn a token nor set the
//     cookie, and a token is worthless in another browser or after a
//     restart.
const (
	// browserCookie binds page tokens to one browser.
	browserCookie = "collab_act"
	// tokenLife is how long a page's forms stay valid.
	tokenLife = 12 * time.Hour
	// nonceSize is the random part of a page token.
	nonceSize = 12
)

// browserID returns the browser's binding cookie, setting a fresh one on
// w when the request has none.
func browserID(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(browserCookie); err == nil && len(c.Value) == 32 {
		if _, err := hex.DecodeString(c.Value); err == nil {
			return c.Value
		}
	}
	b := make([]byte, 16)
	rand.Read(b)
	id := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: browserCookie, Value: id, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	// The cookie is only useful to this request's page once it is set.
	r.AddCookie(&http.Cookie{Name: browserCookie, Value: id})
	return id
}

// pageToken signs a fresh token for one page of workspace ws.
func (a *acts) pageToken(browser, ws string, now time.Time) string {
	head := make([]byte, nonceSize+8)
	rand.Read(head[:nonceSize])
	binary.BigEndian.PutUint64(head[nonceSize:], uint64(now.Unix()))
	return base64.RawURLEncoding.EncodeToString(head) + "." + base64.RawURLEncoding.EncodeToString(a.sign(browser, ws, head))
}

func (a *acts) sign(browser, ws string, head []byte) []byte {
	m := hmac.New(sha256.New, a.key)
	m.Write([]byte(browser))
	m.Write([]byte{0})
	m.Write([]byte(ws))
	m.Write([]byte{0})
	m.Write(head)
	return m.Sum(nil)
}

// tokenValid reports whether token was signed by this process for this
// browser and workspace, less than tokenLife ago.
func (a *acts) tokenValid(token string, r *http.Request, ws string, now time.Time) bool {
	c, err := r.Cookie(browserCookie)
	if err != nil {
		return false
	}
	h, sig, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	head, err1 := base64.RawURLEncoding.DecodeString(h)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || len(head) != nonceSize+8 {
		return false
	}
	if !hmac.Equal(mac, a.sign(c.Value, ws, head)) {
		return false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(head[nonceSize:])), 0)
	return now.Sub(issued) < tokenLife && issued.Before(now.Add(time.Minute))
}

// sameOrigin says why r is not a post from one of this view's own pages,
// "" when it is. The Host and Origin policy has already refused a
// foreign Host and a foreign Origin.
func sameOrigin(r *http.Request) string {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		if site == "same-origin" {
			return ""
		}
		return "the browser says this form was sent from another site (Sec-Fetch-Site: " + site + ")"
	}
	if r.Header.Get("Origin") != "" {
		return "" // admitted as this view's own by the Host and Origin policy
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		u, err := url.Parse(ref)
		if err == nil && strings.EqualFold(u.Host, r.Host) && (u.Scheme == "http" || u.Scheme == "https") {
			return ""
		}
		return "the form was sent from a page of another site (Referer)"
	}
	return "the request says nothing of the page that sent it (no Sec-Fetch-Site, Origin or Referer), so it may come from another site"
}
